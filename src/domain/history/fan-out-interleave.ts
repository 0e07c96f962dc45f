/**
 * Several chats' search answers as one list, the way one keyword query over all of them
 * merged them (history-retrieval.ts `searchHistoryOf`): each chat's matches best first, the
 * chats taken in turn (round-robin.ts: their scores are not comparable), at most `limit`
 * matches — each followed by the turns shown as its context, which do not count. Every chat
 * numbers its own messages, so a message is known by its chat and seq together, never by
 * seq alone: two chats' message 7 are two messages.
 */
import type { HistoryHit } from "./history-search-port";
import { roundRobin } from "./round-robin";

/** The identity of a message across chats. */
export const messageKeyOf = (h: Pick<HistoryHit, "chatKey" | "seq">): string => `${h.chatKey}\u0000${h.seq}`;

export function interleaveChats(
  perChat: readonly { readonly chatKey: string; readonly hits: readonly HistoryHit[] }[],
  limit: number,
): HistoryHit[] {
  if (limit <= 0) return [];
  const groups = roundRobin(
    perChat.map((c) => groupsOf(c.chatKey, c.hits)),
    limit,
  );
  const out: HistoryHit[] = [];
  const seen = new Set<string>();
  for (const group of groups)
    for (const h of group) {
      const key = messageKeyOf(h);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(h);
    }
  return out;
}

/**
 * One chat's answer as groups of a match and its context turns, best match first. A context
 * turn belongs to the match nearest to it in the chat's order (the search placed it next to
 * that match, or after several matches); a context turn with no match left, or a message
 * another chat's answer claims, is dropped.
 */
function groupsOf(chatKey: string, hits: readonly HistoryHit[]): HistoryHit[][] {
  const own = hits.filter((h) => h.chatKey === chatKey);
  const matches: HistoryHit[] = [];
  const matched = new Set<number>();
  for (const h of own)
    if (h.via !== "context" && !matched.has(h.seq)) {
      matched.add(h.seq);
      matches.push(h);
    }
  const groups = matches.map((m) => [m]);
  const placed = new Set<number>();
  for (const c of own) {
    if (c.via !== "context" || matched.has(c.seq) || placed.has(c.seq)) continue;
    let best = -1;
    matches.forEach((m, i) => {
      const far = Math.abs(m.seq - c.seq);
      if (best < 0 || far < Math.abs((matches[best] as HistoryHit).seq - c.seq)) best = i;
    });
    if (best < 0) continue;
    placed.add(c.seq);
    groups[best]?.push(c);
  }
  return groups;
}
