/**
 * A filter's scopes split for nodes_fts (migration 0200): collections, searched in their
 * own token namespaces, and every other scope, searched through the scope_token column.
 */
import { parseScopeKey, type ScopeKey } from "../../domain/retrieval/scope-key";

export function splitScopes(scopes: readonly ScopeKey[]): {
  readonly collections: string[];
  readonly others: ScopeKey[];
} {
  const collections: string[] = [];
  const others: ScopeKey[] = [];
  for (const key of scopes) {
    const scope = parseScopeKey(key);
    if (!scope) continue;
    if (scope.type === "collection") collections.push(scope.id);
    else others.push(key);
  }
  return { collections, others };
}
