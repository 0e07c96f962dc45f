/**
 * Document-level evidence for the fielded ranking (docs/retrieval.md#pipeline): each candidate
 * ranked by how strongly its whole document answers — the sum of the best few field scores
 * among the candidates of the same document. A guide page about what is asked holds several
 * matching passages; a glossary line or an API table row that names the same term holds one,
 * and on the Vue docs those short entries outranked the guide section the question was about.
 * Fused by RRF next to the fielded list, so a single strong passage elsewhere still counts.
 */

/** Passages of one document counted at most: one long page must not win by its length alone. */
export const ROOT_EVIDENCE_TOP = 3;

export type Scored = { readonly nodeId: string; readonly score: number };

/**
 * `ranked` (best first) reordered by document evidence; within a document the candidates keep
 * their order. `rootOf` names a candidate's document.
 */
export function rootEvidenceRanking(
  ranked: readonly Scored[],
  rootOf: (nodeId: string) => string,
  top = ROOT_EVIDENCE_TOP,
): Scored[] {
  const best = new Map<string, number[]>();
  for (const r of ranked) {
    const key = rootOf(r.nodeId);
    const scores = best.get(key) ?? [];
    if (scores.length < top) scores.push(r.score);
    best.set(key, scores);
  }
  const total = (id: string) => (best.get(rootOf(id)) ?? []).reduce((a, b) => a + b, 0);
  return ranked
    .map((r, i) => ({ nodeId: r.nodeId, score: total(r.nodeId), i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ nodeId, score }) => ({ nodeId, score }));
}
