/**
 * What the bot keeps about one person that a chat may show them (`/memory`), and the one item a
 * short id names among exactly those (`/forget`) — docs/memory.md#your-own-memory.
 *
 * The list is read through the turn's own scopes and the one read gate (`listActive`), then
 * narrowed: only scopes the turn may also write (so every listed item can be forgotten here),
 * the asker's person and account scopes, and of the chat's own scope in a private chat all of
 * it, in a group only what the asker said. In a group only `public` items remain. `/forget`
 * resolves its id among this list and nothing else, so a private item's id, another person's id
 * and an id nobody has are the same answer: not found.
 */
import type { MemoryItem } from "./memory";
import type { MemoryStore } from "./memory-store";
import { learnedInPrivate } from "./origin";
import { includesScope, type ReadableScope, type ScopeInput, sameScope, turnScopes } from "./scope";

/** At most this many items are read; the reply shows fewer, and says how many there are. */
export const OWN_MEMORY_MAX = 500;
/** The shortest short id: six letters or digits of the node id after `m_`. */
export const SHORT_ID_MIN = 6;

export type OwnItem = { readonly shortId: string; readonly item: MemoryItem };

const isOwnScope = (s: ReadableScope) => s.type === "person" || s.type === "account";

export async function ownMemory(
  store: MemoryStore,
  req: { readonly scopes: ScopeInput; readonly account: string | null },
): Promise<OwnItem[]> {
  if (!req.account) return [];
  const { readable, writable, session } = turnScopes(req.scopes);
  const privateTurn = learnedInPrivate(req.scopes.session);
  const forgettable = readable.filter((s) => includesScope(writable, s));
  const own = forgettable.filter(isOwnScope);
  const chat = forgettable.filter((s) => sameScope(s, session));
  const [ofPerson, ofChat] = await Promise.all([
    // In their private chat a person also sees (and may forget) what a newer statement closed; a
    // group never lists a closed item, which would say that something newer replaced it.
    own.length > 0 ? store.listActive({ scopes: own, limit: OWN_MEMORY_MAX, closed: privateTurn }) : [],
    chat.length > 0
      ? store.listActive({
          scopes: chat,
          limit: OWN_MEMORY_MAX,
          closed: privateTurn,
          // A private chat is the person's own; in a shared chat only what they said is theirs.
          ...(privateTurn ? {} : { authors: [req.account] }),
        })
      : [],
  ]);
  const items = [...new Map([...ofPerson, ...ofChat].map((i) => [i.nodeId, i] as const)).values()]
    .filter((i) => privateTurn || i.sensitivity === "public")
    .sort((a, b) => b.importance - a.importance || b.updatedAt - a.updatedAt)
    .slice(0, OWN_MEMORY_MAX);
  const short = shortIds(items.map((i) => i.nodeId));
  return items.map((item) => ({ item, shortId: short.get(item.nodeId) ?? hashOf(item.nodeId) }));
}

const hashOf = (nodeId: string) => nodeId.replace(/^m_/, "");

/** For each id the shortest prefix (at least SHORT_ID_MIN) that no other id of the list shares. */
export function shortIds(nodeIds: readonly string[]): Map<string, string> {
  const hashes = nodeIds.map(hashOf);
  const out = new Map<string, string>();
  nodeIds.forEach((id, i) => {
    const hash = hashes[i] ?? "";
    let length = SHORT_ID_MIN;
    while (length < hash.length && hashes.some((h, j) => j !== i && h.startsWith(hash.slice(0, length))))
      length++;
    out.set(id, hash.slice(0, length));
  });
  return out;
}

/**
 * What `/forget` was given, read strictly: a short id or a full id (`m_…`), letters and digits
 * only, nothing else on the line. Null for anything else — a list number, a space, a wildcard.
 */
export function parseOwnId(raw: string): string | null {
  const match = /^(?:m_)?([0-9a-z]{6,22})$/.exec(raw.trim().toLowerCase());
  return match?.[1] ?? null;
}

export type OwnTarget =
  | { readonly kind: "found"; readonly item: MemoryItem }
  | { readonly kind: "not-found" }
  | { readonly kind: "ambiguous"; readonly count: number };

/** The item an id names among the asker's own list: one match, none, or several. */
export function resolveOwnId(list: readonly OwnItem[], prefix: string): OwnTarget {
  const matches = list.filter((o) => hashOf(o.item.nodeId).startsWith(prefix));
  const [only] = matches;
  if (only && matches.length === 1) return { kind: "found", item: only.item };
  return matches.length === 0 ? { kind: "not-found" } : { kind: "ambiguous", count: matches.length };
}
