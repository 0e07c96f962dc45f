/**
 * The field-scores stage (docs/retrieval.md#pipeline): where most candidates sit under headings,
 * the candidates are ranked again by the query's weighted terms in their heading path and body
 * (field-score.ts), with a section list (section-evidence.ts) and, when a profile weights it, a
 * document-evidence list (root-evidence.ts), fused with the index's lists in place of the hint
 * list. The candidates' fields are also what the relevance floor reads.
 */
import type { ContextNode } from "../context-node";
import { DEFAULT_FIELD_SCORE, type Fielded, fieldScores, fieldsOf } from "../field-score";
import type { Candidate } from "../ports";
import type { FieldsOptions, RetrievalOptions } from "../retrieval-options";
import { ROOT_EVIDENCE_TOP, rootEvidenceRanking } from "../root-evidence";
import { sectionEvidenceRanking } from "../section-evidence";
import { type RankedList, reciprocalRankFusion } from "./fuse";
import { evidenceTokens, type ReadQuery } from "./read-query";
import { floorNames } from "./relevance-floor";

export type FieldEvidence = {
  /** True when the fielded ranking takes the hint list's place. */
  readonly fielded: boolean;
  /** The query's terms, IDF- and turn-weighted; null when the index could not count them. */
  readonly terms: ReadonlyMap<string, number> | null;
  /** The identifiers the relevance floor judges; null when the floor is off. */
  readonly names: ReadonlyMap<string, number> | null;
  /** Heading and body token counts of each visible candidate, when the ranking or the floor reads them. */
  readonly fields: ReadonlyMap<string, Fielded> | null;
};

export function fieldEvidence(
  query: ReadQuery,
  terms: ReadonlyMap<string, number> | null,
  candidates: readonly Candidate[],
  visible: ReadonlyMap<string, ContextNode>,
  options: RetrievalOptions,
): FieldEvidence {
  // The heading field replaces the hint list where documents have headings; over flat
  // documents (a title and text, as in an entity wiki) the measured winner is the hint list
  // (docs/decisions/0009-fielded-ranking-where-documents-have-headings.md).
  const fielded = options.fields.headingWeight > 0 && terms !== null && sectioned(visible);
  // The floor weighs the identifiers the asking turn names (none, or only in passing: it passes).
  const names =
    terms && options.coverage.relevanceFloor > 0 ? floorNames(query.turns.at(-1) ?? "", terms) : null;
  // Fields tokenize every candidate's text, the costliest step of a search: only when the
  // fielded ranking or the floor reads them.
  const fields =
    terms && (fielded || (names !== null && names.size > 0)) ? fieldsByNode(candidates, visible) : null;
  return { fielded, terms, names, fields };
}

/** True when most candidates sit under a heading: the heading path is then a field worth scoring. */
function sectioned(visible: ReadonlyMap<string, ContextNode>): boolean {
  let under = 0;
  for (const n of visible.values()) if (n.path.length > 0) under++;
  return visible.size > 0 && under * 2 >= visible.size;
}

/** Heading and body token counts of every visible candidate. */
function fieldsByNode(candidates: readonly Candidate[], visible: ReadonlyMap<string, ContextNode>) {
  const out = new Map<string, Fielded>();
  for (const c of candidates) {
    const node = visible.get(c.nodeId);
    if (node && !out.has(c.nodeId)) out.set(c.nodeId, fieldsOf(node, evidenceTokens));
  }
  return out;
}

/** For a query read with earlier turns, the terms its asking turn says (weight 1); else none. */
function askedNow(query: ReadQuery): ReadonlySet<string> | undefined {
  if (query.turns.length < 2 || !query.turnWeights) return undefined;
  return new Set([...query.turnWeights].filter(([, w]) => w >= 1).map(([t]) => t));
}

/**
 * The index's lists fused with the fielded ranking of the visible candidates (RRF), or null
 * when the ranking is not fielded (the hint list ranks instead).
 */
export function fieldRanking(
  lists: readonly RankedList[],
  query: ReadQuery,
  evidence: FieldEvidence,
  visible: ReadonlyMap<string, ContextNode>,
  options: FieldsOptions,
  rrfK: number,
): Candidate[] | null {
  const { terms, fields } = evidence;
  if (!evidence.fielded || !terms || !fields) return null;
  const scoring = { ...DEFAULT_FIELD_SCORE, heading: options.headingWeight, asked: askedNow(query) };
  const scores = fieldScores(
    terms,
    [...fields].map(([id, f]) => ({ id, fields: f })),
    scoring,
  );
  const sectionOf = (id: string) => visible.get(id)?.parentId ?? id;
  const { sections, roots } = options.weights;
  const ranked = [...scores]
    .map(([nodeId, score]) => ({ nodeId, score }))
    .sort((a, b) => b.score - a.score || (a.nodeId < b.nodeId ? -1 : 1));
  return reciprocalRankFusion(
    [
      ...lists,
      { name: "fields", weight: options.weights.fields, items: ranked },
      {
        name: "sections",
        weight: sections,
        items: sections > 0 ? sectionEvidenceRanking(ranked, fields, terms, sectionOf, scoring) : [],
      },
      // Document evidence, where a profile turns it on (off by default:
      // docs/decisions/0023-document-evidence-off-sections-at-half-weight.md).
      {
        name: "roots",
        weight: roots,
        items:
          roots > 0
            ? rootEvidenceRanking(ranked, (id) => visible.get(id)?.rootId ?? id, ROOT_EVIDENCE_TOP, sectionOf)
            : [],
      },
    ],
    rrfK,
  ).filter((c) => fields.has(c.nodeId));
}
