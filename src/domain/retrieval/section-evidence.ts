/**
 * Section-level evidence for the fielded ranking (docs/retrieval.md#pipeline): each candidate
 * ranked by the field score of its whole section — the body counts of all the section's
 * candidate passages pooled, scored once under the section's heading path. A section cut into
 * several passages is judged as one text, as a reader (and the section-BM25 baseline) judges
 * it: a question whose words are spread over the section's passages finds it, where each
 * passage alone holds only part of them. Fused by RRF next to the per-passage list, at half
 * its weight (docs/decisions/0023-document-evidence-off-sections-at-half-weight.md).
 */
import { DEFAULT_FIELD_SCORE, type Fielded, type FieldScoreOptions, fieldScores } from "./field-score";
import type { Scored } from "./root-evidence";

/** Weight of the section list against the per-passage fielded list (1). */
export const SECTION_EVIDENCE_WEIGHT = 0.5;

/**
 * `ranked` (best first) reordered by the score of each candidate's section; candidates of one
 * section keep their order. `sectionOf` names a candidate's section (its parent).
 */
export function sectionEvidenceRanking(
  ranked: readonly Scored[],
  fields: ReadonlyMap<string, Fielded>,
  terms: ReadonlyMap<string, number>,
  sectionOf: (nodeId: string) => string,
  options: FieldScoreOptions = DEFAULT_FIELD_SCORE,
): Scored[] {
  // A section's first passage stands for it as is (its heading path is the section's); its
  // body is copied only when a second passage of the section is pooled into it.
  const pooled = new Map<string, Fielded>();
  const copied = new Set<string>();
  for (const r of ranked) {
    const f = fields.get(r.nodeId);
    if (!f) continue;
    const key = sectionOf(r.nodeId);
    const section = pooled.get(key);
    if (!section) {
      pooled.set(key, f);
      continue;
    }
    const body = copied.has(key) ? section.body : new Map(section.body);
    copied.add(key);
    for (const [t, c] of f.body) body.set(t, (body.get(t) ?? 0) + c);
    pooled.set(key, { ...section, body });
  }
  const scores = fieldScores(
    terms,
    [...pooled].map(([id, f]) => ({ id, fields: f })),
    options,
  );
  return ranked
    .map((r, i) => ({ nodeId: r.nodeId, score: scores.get(sectionOf(r.nodeId)) ?? 0, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ nodeId, score }) => ({ nodeId, score }));
}
