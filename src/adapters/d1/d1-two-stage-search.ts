/**
 * Two-stage search over knowledge collections (d1-keyword-index.ts): runs twoStageSql
 * (d1-two-stage-sql.ts) and reads its rows as the flat list, the list inside the best parents
 * and the families, or null when the flat search must decide.
 */
import type { NodeType } from "../../domain/retrieval/context-node";
import type { Candidate, Family, IndexFilter, TwoStageHits } from "../../domain/retrieval/ports";
import { namespaceTemplate } from "../../domain/text/fts-namespace";
import { MIN_KEPT, MIN_WINDOW, POSTINGS_BUDGET, WINDOW_FACTOR } from "./d1-collection-ranking";
import { filterSql } from "./d1-filter";
import { toNode } from "./d1-node-rows";
import { type FamiliesAsked, type TwoStageRow, twoStageSql } from "./d1-two-stage-sql";

/**
 * Two-stage search ranks a window this many times wider: parents (documents, sections) are few
 * among the best-ranked rows, and the passages under them rank below the collection's best.
 */
const INSIDE_WINDOW_FACTOR = 10;

export type TwoStageQuery = IndexFilter & {
  text: string;
  limit: number;
  parentTypes: readonly NodeType[];
  parents: number;
  above: number;
  families?: FamiliesAsked;
};

/** Kind 1 rows as families by parent id. */
function familiesOf(rows: readonly TwoStageRow[]): Map<string, Family> {
  const out = new Map<string, Family>();
  for (const r of rows)
    if (r.kind === 1)
      out.set(r.node_id, { parent: toNode(r), count: r.family_count ?? 0, text: r.family_text });
  return out;
}

/** The two-stage search of `collections` for the query's `tokens`, at most `limit` per list. */
export async function searchTwoStage(
  db: D1Database,
  q: TwoStageQuery,
  collections: readonly string[],
  tokens: readonly string[],
  limit: number,
): Promise<TwoStageHits | null> {
  const hitFilter = filterSql(q, 6);
  const parentFilter = filterSql({ ...q, nodeTypes: q.parentTypes }, 6 + hitFilter.params.length);
  const sized = 6 + hitFilter.params.length + parentFilter.params.length;
  const narrow = Math.max(limit * WINDOW_FACTOR, MIN_WINDOW);
  const families = {
    of: Math.max(0, q.families?.of ?? 0),
    maxTokens: Math.max(0, q.families?.maxTokens ?? 0),
  };
  const { results } = await db
    .prepare(
      twoStageSql(hitFilter.where, parentFilter.where, sized, {
        parents: Math.max(0, q.parents),
        limit,
        narrow,
        wide: narrow * INSIDE_WINDOW_FACTOR,
        families,
      }),
    )
    .bind(
      JSON.stringify(collections),
      JSON.stringify(tokens.map((t) => [t, namespaceTemplate(t)])),
      MIN_KEPT,
      POSTINGS_BUDGET,
      q.above,
      ...hitFilter.params,
      ...parentFilter.params,
      JSON.stringify(q.nodeTypes),
      q.collections ? JSON.stringify(q.collections) : null,
    )
    .all<TwoStageRow>();
  const first = results[0];
  // No row says how full the window was: the flat search decides (cheap when nothing matched).
  if (!first) return null;
  const hits = results.filter((r) => r.kind === 0 && r.hit);
  // A window the filter left short of the limit while more rows matched: the flat search
  // looks further (wider windows, then every match).
  if (hits.length < limit && first.window_rows >= (first.two_stage ? narrow * INSIDE_WINDOW_FACTOR : narrow))
    return null;
  const twoStage = first.two_stage === 1;
  const asCandidate = (r: TwoStageRow): Candidate => ({
    nodeId: r.node_id,
    score: -r.rank,
    node: toNode(r),
  });
  return {
    hits: hits.map(asCandidate),
    inside: twoStage ? results.filter((r) => r.kind === 0 && r.inside).map(asCandidate) : null,
    ...(q.families ? { families: familiesOf(results) } : {}),
  };
}
