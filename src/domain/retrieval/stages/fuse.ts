/**
 * The fuse stage (docs/retrieval.md#pipeline): the candidate lists — keyword, two-stage's
 * inside list, the vector leg — fused by reciprocal rank fusion (Cormack et al.):
 * score = Σ weight / (k + rank), rank from 1, each list weighted by `fuse.weights` (the vector
 * list's weight times the read model's own). The hint list (hints.ts) or the fielded ranking
 * (field-scores.ts) is fused on top. Memory recall fuses its lists here too.
 */
import type { Candidate } from "../ports";
import type { FuseOptions } from "../retrieval-options";

export type RankedList = {
  readonly name: string;
  readonly weight: number;
  readonly items: readonly Candidate[];
};

export const RRF_K = 60;

/** Fused scores by node id, best first; a node's best rank per list counts once. */
export function reciprocalRankFusion(lists: readonly RankedList[], k = RRF_K): Candidate[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    const seen = new Set<string>();
    let rank = 0;
    for (const item of list.items) {
      if (seen.has(item.nodeId)) continue;
      seen.add(item.nodeId);
      rank++;
      scores.set(item.nodeId, (scores.get(item.nodeId) ?? 0) + list.weight / (k + rank));
    }
  }
  return [...scores.entries()]
    .map(([nodeId, score]) => ({ nodeId, score }))
    .sort((a, b) => b.score - a.score || (a.nodeId < b.nodeId ? -1 : 1));
}

/** What the candidates stage found, one ranked list per leg. */
export type CandidateLegs = {
  readonly keyword: readonly Candidate[];
  readonly inside: readonly Candidate[];
  readonly vector: readonly Candidate[];
};

/** The legs as weighted lists, in the order they are fused; `modelWeight` is the read model's. */
export function candidateLists(
  legs: CandidateLegs,
  options: Pick<FuseOptions, "weights">,
  modelWeight = 1,
): RankedList[] {
  return [
    { name: "keyword", weight: options.weights.keyword, items: legs.keyword },
    { name: "inside", weight: options.weights.inside, items: legs.inside },
    { name: "vector", weight: options.weights.vector * modelWeight, items: legs.vector },
  ];
}

/** `ranking` with each node's boost (the hint list's share) added, best first. */
export function withBoosts(ranking: readonly Candidate[], boosts: ReadonlyMap<string, number>): Candidate[] {
  return ranking
    .map((c) => ({ ...c, score: c.score + (boosts.get(c.nodeId) ?? 0) }))
    .sort((a, b) => b.score - a.score || (a.nodeId < b.nodeId ? -1 : 1));
}
