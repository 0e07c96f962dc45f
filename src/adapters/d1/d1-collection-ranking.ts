/**
 * How a collection search ranks inside FTS (d1-keyword-index.ts): the query's tokens OR-ed in
 * the readable collections' namespaces, its rarest tokens kept within a postings budget, and
 * bm25 ranking a window of rows before any join to `nodes`.
 */

/**
 * Postings a collection search may read: the rarest tokens are kept while the sum of their
 * document frequencies stays within this, and always the MIN_KEPT rarest. Below a few
 * thousand passages every token fits, so small collections rank on all of their tokens; in
 * a large one the tokens that most rows hold (which add little to bm25 but most of the
 * work) are left out (docs/decisions/0017-collection-fts-namespaces-and-postings-budget.md).
 */
export const POSTINGS_BUDGET = 20_000;
export const MIN_KEPT = 4;

/** Rows bm25 ranks inside FTS before the SQL filter, per candidate asked for. */
export const WINDOW_FACTOR = 4;
export const MIN_WINDOW = 100;

/** A MATCH string that matches nothing: no collection has the namespace "⁰". */
export const NOTHING = 'fts_tokens : "⁰"';

/** The readable collections' namespaces (a collection not in kb_collections has none). */
export const NAMESPACES = `ns AS (SELECT fts_ns AS ns FROM kb_collections
  WHERE name IN (SELECT value FROM json_each(?1)) AND fts_ns IS NOT NULL)`;

/** A template (namespace_template) filled with every readable namespace, OR-ed. */
export const filled = (template: string) => `replace(${template}, char(1), ns.ns)`;

/**
 * The collections' matches ranked by bm25 inside FTS: ?1 collection names, ?2 [[token,
 * template]], ?3 MIN_KEPT, ?4 POSTINGS_BUDGET, `rows` ranked (RANKED: ?5, -1 = every match), as
 * CTE `top`; `before`: CTEs that `rows` reads.
 */
export const ranked = (rows: string, before = "") => `WITH ${NAMESPACES},${before}
    q AS (SELECT key AS i, value ->> '$[0]' AS token, value ->> '$[1]' AS template FROM json_each(?2)),
    f AS (SELECT i, template, coalesce((SELECT sum(d.df) FROM kb_fts_df d
            WHERE d.ns IN (SELECT ns FROM ns) AND d.token = q.token), 0) AS df FROM q),
    k AS (SELECT template, row_number() OVER (ORDER BY df, i) AS r,
            sum(df) OVER (ORDER BY df, i ROWS UNBOUNDED PRECEDING) AS postings FROM f),
    m AS (SELECT 'fts_tokens : (' || group_concat(${filled("k.template")}, ' OR ') || ')' AS expr
            FROM k, ns WHERE k.r <= ?3 OR k.postings <= ?4),
    top AS (SELECT rowid AS seq, bm25(nodes_fts, 1.0, 0.0) AS rank FROM nodes_fts
            WHERE nodes_fts MATCH coalesce((SELECT expr FROM m), '${NOTHING}') ORDER BY rank LIMIT ${rows})`;
