/**
 * The FTS5 MATCH expression of a memory search over `nodes_fts(fts_tokens,
 * scope_token)`. Hard scope adds `scope_token : ("<hex>" OR …)` so that FTS reads only the
 * readable scopes' rows; soft scope searches the whole pool and leaves visibility to SQL.
 * Built only from quoted tokens (fts-query.ts): user text never reaches FTS5 syntax.
 */
import { allOf, inColumn, matchExpression } from "../text/fts-query";
import { queryTokens } from "../text/search-tokens";
import { type Scope, scopeToken } from "./scope";

/** Query tokens per search; a pasted essay stays cheap. */
export const MEMORY_QUERY_TOKENS = 16;

export function memoryMatch(text: string, scopes: readonly Scope[] | null): string | null {
  const terms = matchExpression(queryTokens(text, MEMORY_QUERY_TOKENS));
  if (!terms) return null;
  const body = inColumn("fts_tokens", terms);
  if (scopes === null) return body;
  const scopeTerms = matchExpression(scopes.map(scopeToken));
  return scopeTerms ? allOf(inColumn("scope_token", scopeTerms), body) : null;
}
