/**
 * Ranking of recalled memory: relevance (bm25) × importance × recency, the hard-scope cascade
 * (most specific scope takes the budget first) and the soft-scope visibility re-check. The
 * index already filtered by scope; these functions check again, because a leak across chats
 * is the worst bug this project can ship.
 */

import { softGateAllows } from "../retrieval/read-gate";
import { type MemoryItem, normalizeMemoryText } from "./memory";
import type { MemoryHit } from "./memory-store";
import { type ReadableScope, type Scope, scopeAllows, scopeKey } from "./scope";

export type ScoredMemory = { readonly item: MemoryItem; readonly score: number };

const DAY_MS = 86_400_000;

/**
 * score = relevance × (0.5 + importance) × (0.5 + 0.5 × 2^(−age / halfLife)).
 * Relevance is −bm25 scaled to [0, 1] by the best hit of the same result set, so scores
 * compare within one recall, not across recalls.
 */
/** A factor on an item's score (a question about the past favours what was true then). */
export type Weigh = (item: MemoryItem) => number;

export function scoreHits(
  hits: readonly MemoryHit[],
  now: number,
  halfLifeDays: number,
  weigh?: Weigh,
): ScoredMemory[] {
  const best = Math.max(1e-9, ...hits.map((h) => -h.rank));
  return hits.map((hit) => {
    const relevance = Math.max(0, -hit.rank) / best;
    const ageDays = Math.max(0, now - hit.updatedAt) / DAY_MS;
    const recency = 0.5 + 0.5 * 2 ** (-ageDays / halfLifeDays);
    const { rank: _rank, ...item } = hit;
    const factor = weigh ? weigh(item) : 1;
    return { item, score: Number((relevance * (0.5 + hit.importance) * recency * factor).toFixed(4)) };
  });
}

/** Importance × recency alone, for items listed without a query (the mandatory block). */
export function standingScore(item: MemoryItem, now: number, halfLifeDays: number): number {
  const ageDays = Math.max(0, now - item.updatedAt) / DAY_MS;
  return Number((item.importance * (0.5 + 0.5 * 2 ** (-ageDays / halfLifeDays))).toFixed(4));
}

const byScore = (a: ScoredMemory, b: ScoredMemory) =>
  b.score - a.score || b.item.updatedAt - a.item.updatedAt || (a.item.nodeId < b.item.nodeId ? -1 : 1);

/**
 * Hard-scope cascade: the scopes in `order` (most specific first) fill the budget in turn,
 * each with its own best items; the same item or the same text seen in a more specific scope
 * is not repeated. Hits of a scope not in `order` are dropped.
 */
export function cascade(
  hits: readonly MemoryHit[],
  order: readonly Scope[],
  limit: number,
  now: number,
  halfLifeDays: number,
  weigh?: Weigh,
): ScoredMemory[] {
  const scored = scoreHits(hits, now, halfLifeDays, weigh);
  const out: ScoredMemory[] = [];
  const seen = new Set<string>();
  for (const scope of order) {
    if (out.length >= limit) break;
    const key = scopeKey(scope);
    const mine = scored.filter((s) => scopeKey(s.item.scope) === key).sort(byScore);
    for (const s of mine) {
      if (out.length >= limit) break;
      if (!remember(seen, s.item)) continue;
      out.push(s);
    }
  }
  return out;
}

/**
 * Whether soft scope may show this item in a turn whose own (hard) scopes are `own`: items the
 * turn's own scopes allow (scope and sensitivity level); others only when public and portable.
 * `secret_like` and `private` items therefore never leave the turns their scope allows them in.
 */
export function softVisible(
  item: Pick<MemoryItem, "scope" | "sensitivity" | "portable">,
  own: readonly ReadableScope[],
): boolean {
  return softGateAllows(own, item);
}

/**
 * The re-check before anything reaches a prompt: an active item the turn's readable scopes
 * allow (hard scope), or one soft scope may show (`softVisible`).
 */
export function recallVisible(item: MemoryItem, readable: readonly ReadableScope[], soft: boolean): boolean {
  if (item.status !== "active") return false;
  return soft ? softVisible(item, readable) : scopeAllows(readable, item);
}

/**
 * Whether a closed item may answer a question about the past: the reader may see it (scope and
 * level, as any item) and the item that closed it. Showing an item as "past" says something newer
 * replaced it, so when the newer one is hidden from this reader — a private statement closed a
 * public one — the old item is not shown at all: nothing tells a group a hidden item exists.
 */
export function closedVisible(
  item: MemoryItem,
  closer: MemoryItem | undefined,
  readable: readonly ReadableScope[],
  soft: boolean,
): boolean {
  if (item.status !== "superseded" || !closer || closer.status === "archived") return false;
  const visible = (m: MemoryItem) => (soft ? softVisible(m, readable) : scopeAllows(readable, m));
  return visible(item) && visible(closer);
}

/** Soft scope: one ranking over every visible hit, best score first, duplicates dropped. */
export function softRank(
  hits: readonly MemoryHit[],
  own: readonly ReadableScope[],
  limit: number,
  now: number,
  halfLifeDays: number,
  weigh?: Weigh,
): ScoredMemory[] {
  const scored = scoreHits(
    hits.filter((h) => softVisible(h, own)),
    now,
    halfLifeDays,
    weigh,
  ).sort(byScore);
  const out: ScoredMemory[] = [];
  const seen = new Set<string>();
  for (const s of scored) {
    if (out.length >= limit) break;
    if (remember(seen, s.item)) out.push(s);
  }
  return out;
}

/** Marks an item seen by id and by normalized text; false when either was seen already. */
function remember(seen: Set<string>, item: MemoryItem): boolean {
  const id = `id:${item.nodeId}`;
  const text = `text:${normalizeMemoryText(item.text)}`;
  if (seen.has(id) || seen.has(text)) return false;
  seen.add(id);
  seen.add(text);
  return true;
}
