/**
 * Candidates of a memory recall through the shared retrieval pipeline (docs/retrieval.md#pipeline): the
 * memory full-text search (hard or soft scope, filtered in SQL) and, when an embedding model
 * is read, kNN over the memory vectors of the turn's readable scopes, fused by reciprocal rank
 * fusion. Vector candidates come from a cache that may be stale or mislabelled, so each one
 * is loaded from the store and kept only when it is an active item the turn may see.
 *
 * With vectors off (no model, weight 0), failing, or finding nothing, the full-text hits come
 * back exactly as the index returned them, so recall is FTS-only recall (docs/invariants.md#fts-only-still-works).
 */

import type { Candidate } from "../retrieval/ports";
import { gatedFilter } from "../retrieval/read-gate";
import { DEFAULT_RETRIEVAL_OPTIONS, type FuseOptions } from "../retrieval/retrieval-options";
import { candidateLists, reciprocalRankFusion } from "../retrieval/stages/fuse";
import { type VectorSearchDeps, vectorLeg } from "../retrieval/vector-search";
import type { MemoryItem } from "./memory";
import type { MemoryHit, MemoryIndex } from "./memory-store";
import { recallVisible } from "./ranking";
import type { ReadableScope } from "./scope";

export type RecallCandidateDeps = {
  readonly index: MemoryIndex;
  readonly vectors?: VectorSearchDeps | null;
};

export type RecallCandidateQuery = {
  readonly text: string;
  /** The turn's readable scopes with their sensitivity levels, most specific first. */
  readonly scopes: readonly ReadableScope[];
  readonly soft: boolean;
  /** Full-text hits overall, and per scope (hard scope), as MemoryIndex.search takes them. */
  readonly limit: number;
  readonly perScope: number;
  /** Closed items too, for a question about the past (full text only; recall.ts gates them). */
  readonly closed?: boolean;
};

export type RecallCandidates = {
  /**
   * Hits best first. With fusion their `rank` is minus the fused score, so that ranking.ts
   * (relevance = −rank scaled by the best hit) reads fused relevance as it reads bm25.
   */
  readonly hits: MemoryHit[];
  /** Vector candidates dropped by the store re-check (stale, archived, other scopes). */
  readonly dropped: number;
};

/**
 * Memory recall's share of the pipeline's stage options: the fusion of the two lists (the
 * vector leg's window is the full-text limit of each recall).
 */
export type MemoryRecallOptions = {
  readonly fuse: Pick<FuseOptions, "rrfK" | "weights">;
};

export const MEMORY_RECALL_OPTIONS: MemoryRecallOptions = {
  fuse: { rrfK: DEFAULT_RETRIEVAL_OPTIONS.fuse.rrfK, weights: DEFAULT_RETRIEVAL_OPTIONS.fuse.weights },
};

export async function recallCandidates(
  deps: RecallCandidateDeps,
  q: RecallCandidateQuery,
  options: MemoryRecallOptions = MEMORY_RECALL_OPTIONS,
): Promise<RecallCandidates> {
  const vectors = deps.vectors;
  const [keyword, nearest] = await Promise.all([
    deps.index.search({
      text: q.text,
      scopes: q.scopes,
      limit: q.limit,
      perScope: q.perScope,
      ...(q.soft ? { soft: true } : {}),
      ...(q.closed ? { closed: true } : {}),
    }),
    // Soft scope too searches vectors of the readable scopes only (other scopes' public
    // items still come from full text), each at the levels the read gate gives it; the
    // re-check below applies the gate again to every hit.
    vectorLeg(
      vectors,
      gatedFilter(q.scopes, ["memory"]),
      q.text,
      { window: q.limit },
      options.fuse.weights.vector,
    ),
  ]);
  if (!vectors || nearest.length === 0) return { hits: keyword, dropped: 0 };

  const known = new Map<string, MemoryItem>(keyword.map((h) => [h.nodeId, h]));
  const unknown = [...new Set(nearest.map((c) => c.nodeId))].filter((id) => !known.has(id));
  for (const item of await loadVisible(deps.index, unknown, q, vectors)) known.set(item.nodeId, item);
  const dropped = unknown.filter((id) => !known.has(id)).length;
  if (dropped > 0) vectors.logger?.info("memory vector candidates dropped by re-check", { dropped });
  const vectorHits = nearest.filter((c) => known.has(c.nodeId));
  if (vectorHits.length === 0) return { hits: keyword, dropped };

  const lists = candidateLists(
    {
      keyword: keyword.map((h): Candidate => ({ nodeId: h.nodeId, score: -h.rank })),
      inside: [],
      vector: vectorHits,
    },
    options.fuse,
    vectors.vectorWeight,
  );
  const hits = reciprocalRankFusion(lists, options.fuse.rrfK).flatMap((c): MemoryHit[] => {
    const item = known.get(c.nodeId);
    return item ? [{ ...withoutRank(item), rank: -c.score }] : [];
  });
  return { hits, dropped };
}

/**
 * Loads ids from the store and keeps the active items this turn may see. A failed load keeps
 * none: an unchecked vector candidate never reaches a prompt, and full text still answers.
 */
async function loadVisible(
  index: MemoryIndex,
  ids: readonly string[],
  q: RecallCandidateQuery,
  vectors: VectorSearchDeps,
): Promise<MemoryItem[]> {
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  try {
    const items = await index.load(ids);
    return items.filter((item) => wanted.has(item.nodeId) && recallVisible(item, q.scopes, q.soft));
  } catch (e) {
    vectors.logger?.warn("memory vector re-check failed; FTS only", { error: String(e) });
    return [];
  }
}

function withoutRank(item: MemoryItem | MemoryHit): MemoryItem {
  if (!("rank" in item)) return item;
  const { rank: _rank, ...rest } = item;
  return rest;
}
