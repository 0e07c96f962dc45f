/**
 * The flat search of knowledge collections (d1-keyword-index.ts): one statement ranks the
 * collections' matches inside FTS (d1-collection-ranking.ts), the SQL filter on the joined row
 * decides, and the best rows come back with their fields so the pipeline loads none of them.
 */
import type { ContextNode } from "../../domain/retrieval/context-node";
import type { IndexFilter } from "../../domain/retrieval/ports";
import { namespaceTemplate } from "../../domain/text/fts-namespace";
import { MIN_KEPT, MIN_WINDOW, POSTINGS_BUDGET, ranked, WINDOW_FACTOR } from "./d1-collection-ranking";
import { filterSql } from "./d1-filter";
import { NODE_FIELDS, type NodeRow, nodeFields, toNode } from "./d1-node-rows";

/** A candidate with its rank, and its node when the statement carried it. */
export type Ranked = { nodeId: string; rank: number; node?: ContextNode };

const RANKED = ranked("?5");

/**
 * The collection search over RANKED, filter from ?6. With `limit` null the ranked window comes
 * back with the filter's verdict per row; otherwise ?5 is -1 and the filter applies in SQL to
 * every match (rootIds, or a window the filter emptied). The first `carry` rows the filter
 * passes come back with all their fields.
 */
function collectionSearchSql(where: string, limit: number | null, carry: number): string {
  return `${RANKED}
    ${
      limit === null
        ? `, w AS (SELECT top.seq AS seq, top.rank AS rank, coalesce(${where}, 0) AS ok, n.node_id AS id
            FROM top LEFT JOIN nodes n ON n.seq = top.seq),
          r AS (SELECT *, sum(ok) OVER (ORDER BY rank, seq ROWS UNBOUNDED PRECEDING) AS ok_rank FROM w)
          SELECT r.rank AS rank, r.ok AS ok, ${carriedFields}, r.id AS node_id
          FROM r LEFT JOIN nodes c ON c.seq = r.seq AND r.ok AND r.ok_rank <= ${Math.trunc(carry)}
          ORDER BY r.rank, r.seq`
        : `SELECT top.rank AS rank, 1 AS ok, ${nodeFields("n")}
           FROM top JOIN nodes n ON n.seq = top.seq WHERE ${where} ORDER BY top.rank, top.seq LIMIT ${Math.trunc(limit)}`
    }`;
}

/**
 * The carried rows' fields (alias `c`, joined only for them; NULL elsewhere) but the id, which
 * every window row has: the window's first `carry` rows the filter passes come back whole (the
 * pipeline then loads none of them), the rest as ids. The window itself holds ids only, so its
 * sorts move no text.
 */
const carriedFields = NODE_FIELDS.split(",")
  .map((f) => f.trim())
  .filter((f) => f !== "node_id")
  .map((f) => `c.${f} AS ${f}`)
  .join(", ");

/** A window row: its fields are NULL unless carried. */
type Row = { [K in keyof NodeRow]: K extends "node_id" ? string | null : NodeRow[K] | null } & {
  rank: number;
  ok: number;
};

/** The best `limit` rows of the collections the filter passes, best first. */
export async function searchCollections(
  db: D1Database,
  q: IndexFilter,
  collections: readonly string[],
  tokens: readonly string[],
  limit: number,
): Promise<Ranked[]> {
  const filter = filterSql(q, 6);
  const run = (finalLimit: number | null, rows: number) =>
    db
      .prepare(collectionSearchSql(filter.where, finalLimit, limit))
      .bind(
        JSON.stringify(collections),
        JSON.stringify(tokens.map((t) => [t, namespaceTemplate(t)])),
        MIN_KEPT,
        POSTINGS_BUDGET,
        rows,
        ...filter.params,
      )
      .all<Row>();
  // Parent searches (documents, sections) find few of their rows among the best-ranked
  // passages: a window ten times wider, before filtering every match.
  const first = Math.max(limit * WINDOW_FACTOR, MIN_WINDOW);
  for (const window of q.rootIds ? [] : [first, first * 10]) {
    const { results } = await run(null, window);
    const ok = results.filter((r) => r.ok && r.node_id !== null);
    // A window the filter emptied below the limit while more rows matched: look further.
    if (ok.length >= limit || results.length < window) return ok.slice(0, limit).map(candidate);
  }
  const { results } = await run(limit, -1);
  return results.slice(0, limit).map(candidate);
}

/** A row the filter passed with its fields carried (raw_text is never NULL in `nodes`) keeps them. */
const candidate = (r: Row): Ranked =>
  r.ok && r.node_id !== null && r.raw_text !== null
    ? // Carried rows hold every field (the join of `nodes` gives all or none of them).
      { nodeId: r.node_id, rank: r.rank, node: toNode(r as NodeRow) }
    : { nodeId: r.node_id ?? "", rank: r.rank };
