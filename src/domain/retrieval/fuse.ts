/** Reciprocal rank fusion (Cormack et al.): score = Σ weight / (k + rank), rank from 1. */
import type { Candidate } from "./ports";

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
