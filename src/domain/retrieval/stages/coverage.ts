/**
 * The coverage stage (docs/retrieval.md#pipeline): how much of the query a candidate's text
 * holds — the share of the query's tokens, or with fielded scoring the share of its IDF- and
 * turn-weighted terms in the heading path and body — kept above `coverage.min`, and the
 * relevance floor (relevance-floor.ts) that empties the answer to a question the collection
 * does not document.
 */
import { searchTokens } from "../../text/search-tokens";
import type { ContextNode } from "../context-node";
import { fieldCoverage } from "../field-score";
import type { CoverageOptions } from "../retrieval-options";
import type { RankedNode } from "../retrieved-item";
import type { FieldEvidence } from "./field-scores";
import { holdsFloor } from "./relevance-floor";

/** Share of distinct query tokens that occur in the text's tokens. */
export function coverageOf(query: ReadonlySet<string>, text: string): number {
  if (query.size === 0) return 0;
  const tokens = new Set(searchTokens(text));
  let found = 0;
  for (const t of query) if (tokens.has(t)) found++;
  return found / query.size;
}

/**
 * A node's coverage: of the weighted terms in its fields when the ranking is fielded, else of
 * the query's tokens in its retrieval text. Coverage tokenizes the candidate's text: worked out
 * for every candidate only when `coverage.min` filters them, otherwise for the hits that can be
 * returned; remembered per node.
 */
export function coverageMeter(
  tokens: ReadonlySet<string>,
  evidence: Pick<FieldEvidence, "fielded" | "terms" | "fields">,
): (node: ContextNode) => number {
  const { terms, fields } = evidence;
  const memo = new Map<string, number>();
  return (node) => {
    let v = memo.get(node.nodeId);
    if (v === undefined) {
      const f = fields?.get(node.nodeId);
      v = evidence.fielded && terms && f ? fieldCoverage(terms, f) : coverageOf(tokens, node.retrievalText);
      memo.set(node.nodeId, v);
    }
    return v;
  };
}

/** The candidates that hold `options.min` of the query, or none when the relevance floor says so. */
export function coverageChecked(
  candidates: readonly RankedNode[],
  coverage: (node: ContextNode) => number,
  floor: Pick<FieldEvidence, "names" | "fields">,
  options: CoverageOptions,
): RankedNode[] {
  const kept = options.min > 0 ? candidates.filter((x) => coverage(x.node) >= options.min) : [...candidates];
  return holdsFloor(kept, floor.names, floor.fields, options.relevanceFloor) ? kept : [];
}
