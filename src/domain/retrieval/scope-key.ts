/**
 * Scopes as the retrieval pipeline sees them (docs/memory.md#scopes): `type:id`, e.g.
 * `collection:genshin`, `chat:qq:group:G1`, `global:__global__`. The id may itself contain
 * ':' (chat keys), so a key splits at its first ':' only.
 */
export const SCOPE_TYPES = ["global", "chat", "person", "account", "collection", "workspace"] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];

export type ScopeKey = string & { readonly __brand: "ScopeKey" };

export type Scope = { readonly type: ScopeType; readonly id: string };

export const scopeKey = (type: ScopeType, id: string): ScopeKey => `${type}:${id}` as ScopeKey;

export const collectionScope = (name: string): ScopeKey => scopeKey("collection", name);

/** Null for a string that is not `<scope type>:<non-empty id>`. */
export function parseScopeKey(key: string): Scope | null {
  const at = key.indexOf(":");
  if (at <= 0 || at === key.length - 1) return null;
  const type = key.slice(0, at);
  if (!(SCOPE_TYPES as readonly string[]).includes(type)) return null;
  return { type: type as ScopeType, id: key.slice(at + 1) };
}
