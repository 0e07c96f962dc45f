/**
 * The statement of two-stage search over knowledge collections (d1-two-stage-search.ts): the
 * flat window and, above a collection size, the parents' roots and the passages under them,
 * with parent expansion's families, all from one FTS evaluation.
 */
import { CHARS_PER_TOKEN_AT_MOST } from "../../domain/text/token-estimate";
import { ranked } from "./d1-collection-ranking";
import { kbCountsWhere } from "./d1-kb-counts-where";
import { type NodeRow, nodeFields } from "./d1-node-rows";

/** The families asked for: the parents of each list's first `of` rows, up to `maxTokens` of text. */
export type FamiliesAsked = { readonly of: number; readonly maxTokens: number };

/** A row of twoStageSql: a hit (`kind` 0) or a family's parent (`kind` 1). */
export type TwoStageRow = NodeRow & {
  kind: 0 | 1;
  rank: number;
  hit: number;
  inside: number;
  two_stage: number;
  window_rows: number;
  family_count: number | null;
  family_text: string | null;
};

/**
 * The search with two-stage search's second list, from one ranked window: ?5 the size above
 * which it is two-stage, hit filter from ?6, then the parent filter, then ?`sized` the hit node
 * types and ?`sized`+1 the collections for the size (kb_counts). At or below that size this is
 * the flat search's window (`narrow` rows); above it the window is `wide` rows, its best
 * `parents` rows of the parent filter pick the roots, and the hit filter's rows under them form
 * the second list. The first `limit` rows of each list come back whole (`kind` 0); `window_rows`
 * says how many rows the window held. One FTS evaluation, where searching flat, then the
 * parents, then inside them ranked every match three times.
 *
 * Families: the parents of each list's first `families.of` rows (`kind` 1), with the count of
 * their active children of the hit types in their own scope and, unless those estimate above
 * `families.maxTokens`, their raw texts joined in position order: parent expansion's reads, in
 * the same statement, one row per parent.
 */
export function twoStageSql(
  hitWhere: string,
  parentWhere: string,
  sized: number,
  o: { parents: number; limit: number; narrow: number; wide: number; families: FamiliesAsked },
): string {
  const int = Math.trunc;
  const counted = kbCountsWhere({ scopes: "?1", types: `?${sized}`, collections: `?${sized + 1}` });
  const big = `
    big AS (SELECT (SELECT coalesce(sum(nodes), 0) FROM kb_counts WHERE ${counted}) > ?5 AS on_),`;
  // A child outside its parent's scope, or at another sensitivity level, is never part of the
  // family (parent expansion shows the parent's passages to whoever may read the parent, and
  // the read gate passes a (scope, level)). The unary + keeps the scope terms off the indexes:
  // by scope SQLite would walk every row of the collection, not the parent's.
  const childOf = (alias: string, parent: string) => `${alias}.parent_id = ${parent}.node_id
      AND +${alias}.scope_type = ${parent}.scope_type AND +${alias}.scope_id = ${parent}.scope_id
      AND +${alias}.sensitivity = ${parent}.sensitivity
      AND ${alias}.status = 'active' AND ${alias}.node_type IN (SELECT value FROM json_each(?${sized}))`;
  const of = int(o.families.of);
  return `${ranked(`(SELECT CASE WHEN on_ THEN ${int(o.wide)} ELSE ${int(o.narrow)} END FROM big)`, big)},
    w AS MATERIALIZED (SELECT top.seq AS seq, top.rank AS rank, coalesce(${hitWhere}, 0) AS ok,
            coalesce(${parentWhere}, 0) AS parent, n.node_id AS node_id, n.root_id AS root_id
          FROM top LEFT JOIN nodes n ON n.seq = top.seq),
    roots AS (SELECT coalesce(root_id, node_id) AS root FROM w WHERE parent AND (SELECT on_ FROM big)
              ORDER BY rank, seq LIMIT ${int(o.parents)}),
    r AS (SELECT *, count(*) OVER win AS ok_rank, sum(inside) OVER win AS inside_rank
          FROM (SELECT *, CASE WHEN root_id IN (SELECT root FROM roots) THEN 1 ELSE 0 END AS inside FROM w WHERE ok)
          WINDOW win AS (ORDER BY rank, seq ROWS UNBOUNDED PRECEDING)),
    out AS MATERIALIZED (SELECT seq, rank, ok_rank, inside_rank, ok_rank <= ${int(o.limit)} AS hit,
              inside AND inside_rank <= ${int(o.limit)} AS inside FROM r
            WHERE ok_rank <= ${int(o.limit)} OR (inside AND inside_rank <= ${int(o.limit)})),
    fp AS (SELECT DISTINCT n.parent_id AS pid FROM out CROSS JOIN nodes n ON n.seq = out.seq
           WHERE n.parent_id IS NOT NULL AND ((out.hit AND out.ok_rank <= ${of}) OR (out.inside AND out.inside_rank <= ${of}))),
    fs AS (SELECT fp.pid AS pid, count(f.seq) AS k, coalesce(sum(length(f.raw_text)), 0) AS chars,
             coalesce(sum(f.wide_chars), 0) AS wide
           FROM fp CROSS JOIN nodes pa ON pa.node_id = fp.pid LEFT JOIN nodes f ON ${childOf("f", "pa")}
           GROUP BY fp.pid)
    SELECT 0 AS kind, out.rank AS rank, out.seq AS o2, out.hit AS hit, out.inside AS inside,
      (SELECT on_ FROM big) AS two_stage, (SELECT count(*) FROM w) AS window_rows,
      NULL AS family_count, NULL AS family_text, ${nodeFields("n")}
    FROM out CROSS JOIN nodes n ON n.seq = out.seq
    UNION ALL
    SELECT 1, 0, 0, 0, 0, NULL, NULL, fs.k,
      CASE WHEN ${familyTokensAtLeast("fs")} <= ${int(o.families.maxTokens)} THEN coalesce((SELECT group_concat(t, char(10))
        FROM (SELECT c.raw_text AS t FROM nodes c WHERE ${childOf("c", "p")} ORDER BY c.position, c.seq)), '') END,
      ${nodeFields("p")}
    FROM fs CROSS JOIN nodes p ON p.node_id = fs.pid
    ORDER BY kind, rank, o2`;
}

/**
 * A lower bound of a family's token estimate (estimateTokens of its joined text) from its
 * characters and wide characters (nodes.wide_chars, NULL counted as 0: the bound only loosens).
 * SQLite's length counts code points, never more than the estimate's UTF-16 units, and the
 * newlines between children only add to the estimate, so a family above it is above the budget
 * (docs/decisions/0026-families-bounded-by-wide-characters.md).
 */
const familyTokensAtLeast = (fs: string) =>
  `(${fs}.wide + (${fs}.chars - ${fs}.wide) / ${CHARS_PER_TOKEN_AT_MOST}.0)`;
