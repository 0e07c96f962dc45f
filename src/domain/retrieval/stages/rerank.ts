/**
 * The rerank-and-diversify stage (docs/retrieval.md#pipeline): the candidates that passed the
 * coverage checks, scored by importance × recency when they are memory, reordered by the
 * configured reranker when asked, then deduplicated and capped per document or episode.
 */

import type { Reranker } from "../ports";
import type { RerankOptions } from "../retrieval-options";
import type { RankedNode } from "../retrieved-item";
import { reciprocalRankFusion } from "./fuse";

/**
 * `ranked` (in fused order) as the hits expansion may read: rescored, reranked, best first,
 * diversified, at most 3 × `limit`.
 */
export async function rerankHits(
  reranker: Reranker | null | undefined,
  query: string,
  ranked: readonly RankedNode[],
  limit: number,
  options: RerankOptions,
  rrfK: number,
): Promise<RankedNode[]> {
  let scored = options.memory === null ? [...ranked] : ranked.map((r) => memoryScored(r, options.memory));
  if (options.enabled && reranker && scored.length > 1)
    scored = await rerank(reranker, query, scored, options, rrfK);
  scored.sort((a, b) => b.score - a.score);
  return diversify(scored, options.perRoot).slice(0, limit * 3);
}

/** Importance × recency, for memory nodes: the half-life of recency in days (default 90). */
function memoryScored(r: RankedNode, memory: RerankOptions["memory"]): RankedNode {
  const halfLife = (memory?.halfLifeDays ?? 90) * 86_400_000;
  const age = Math.max(0, (memory?.now ?? r.node.updatedAt) - r.node.updatedAt);
  return {
    node: r.node,
    score: r.score * ((0.5 + r.node.importance) * (0.5 + 0.5 * 2 ** (-age / halfLife))),
  };
}

/**
 * Reorders the head of the ranking by the reranker, fused with the first-stage order by RRF
 * (`weight` against 1), so a reranker refines the ranking without discarding it.
 */
async function rerank(
  reranker: Reranker,
  query: string,
  scored: RankedNode[],
  options: RerankOptions,
  rrfK: number,
): Promise<RankedNode[]> {
  const ordered = [...scored].sort((a, b) => b.score - a.score);
  const head = ordered.slice(0, Math.min(ordered.length, options.depth));
  const result = await reranker.rerank(
    query,
    head.map((s) => s.node.rawText),
  );
  if (!result.ok) return scored;
  const byReranker = head
    .map((s, i) => ({ nodeId: s.node.nodeId, score: result.value[i] ?? 0 }))
    .sort((a, b) => b.score - a.score);
  const fused = reciprocalRankFusion(
    [
      { name: "first", weight: 1, items: head.map((s) => ({ nodeId: s.node.nodeId, score: s.score })) },
      { name: "rerank", weight: options.weight, items: byReranker },
    ],
    rrfK,
  );
  const score = new Map(fused.map((f) => [f.nodeId, f.score]));
  // Reranked candidates stay above the rest.
  return ordered.map((s, i) => ({
    ...s,
    score: i < head.length ? 1 + (score.get(s.node.nodeId) ?? 0) : s.score,
  }));
}

/** Drops repeated texts and, with `perRoot` above 0, the hits past that many of one root. */
function diversify(scored: readonly RankedNode[], perRoot: number): RankedNode[] {
  const perRootCount = new Map<string, number>();
  const seenText = new Set<string>();
  const out: RankedNode[] = [];
  for (const s of scored) {
    const text = s.node.rawText.trim();
    if (seenText.has(text)) continue;
    const root = s.node.rootId ?? s.node.nodeId;
    const n = perRootCount.get(root) ?? 0;
    if (perRoot > 0 && n >= perRoot) continue;
    perRootCount.set(root, n + 1);
    seenText.add(text);
    out.push(s);
  }
  return out;
}
