/**
 * Document-level evidence for the fielded ranking (docs/retrieval.md#pipeline): each candidate
 * ranked by how strongly its whole document answers — the sum of the best field score of each
 * of the document's best few sections among the candidates. A guide page about what is asked
 * holds several matching sections; a glossary line or an API entry that names the same term
 * is one section, however many passages a long entry is cut into, and on the Vue docs those
 * entries outranked the guide section the question was about. Fused by RRF next to the
 * fielded list, so a single strong passage elsewhere still counts — when a profile weights it
 * (`documentEvidence`): by default it is off, because on questions written apart from the ones
 * it was designed from it ranked guide pages above the API entries asked about more often
 * than it fixed the opposite (docs/decisions/0023-document-evidence-off-sections-at-half-weight.md).
 */

/** Sections of one document counted at most: one long page must not win by its length alone. */
export const ROOT_EVIDENCE_TOP = 3;

export type Scored = { readonly nodeId: string; readonly score: number };

/**
 * `ranked` (best first) reordered by document evidence; within a document the candidates keep
 * their order. `rootOf` names a candidate's document, `sectionOf` the section it belongs to:
 * a document's evidence is the sum of the best score of each of its best `top` sections, so
 * a long API entry cut into several passages counts once, as one matching section.
 */
export function rootEvidenceRanking(
  ranked: readonly Scored[],
  rootOf: (nodeId: string) => string,
  top = ROOT_EVIDENCE_TOP,
  sectionOf: (nodeId: string) => string = (id) => id,
): Scored[] {
  const best = new Map<string, Map<string, number>>();
  for (const r of ranked) {
    const key = rootOf(r.nodeId);
    const sections = best.get(key) ?? new Map<string, number>();
    best.set(key, sections);
    const section = sectionOf(r.nodeId);
    // Best first: a section's first candidate is its best; its other passages add nothing.
    if (sections.size < top && !sections.has(section)) sections.set(section, r.score);
  }
  const total = (id: string) => {
    let sum = 0;
    for (const v of best.get(rootOf(id))?.values() ?? []) sum += v;
    return sum;
  };
  return ranked
    .map((r, i) => ({ nodeId: r.nodeId, score: total(r.nodeId), i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ nodeId, score }) => ({ nodeId, score }));
}
