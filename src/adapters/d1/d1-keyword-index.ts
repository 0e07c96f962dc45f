/**
 * KeywordIndex over `nodes_fts` (migrations 0002, 0200). The SQL filter on the joined row
 * (status, type, scope) stays the authoritative check in every query.
 *
 * Collection scopes: each collection's rows are indexed under its own token namespace, so
 * the query's tokens are OR-ed in their namespaced forms (one per readable collection) and
 * FTS reads only those collections' postings, whatever else the database holds. The query
 * keeps its rarest tokens while their document frequencies (kb_fts_df) stay within a
 * postings budget, and bm25 ranks inside FTS before the top rows are joined to `nodes` —
 * all in one statement.
 *
 * Other scopes (memory, summaries): the tokens OR-ed in fts_tokens AND-ed with the scope_token
 * column, so FTS itself reads only rows of readable scopes.
 */
import type { ContextNode, NodeType } from "../../domain/retrieval/context-node";
import type {
  Candidate,
  Family,
  IndexFilter,
  KeywordIndex,
  TermFrequencies,
  TwoStageHits,
} from "../../domain/retrieval/ports";
import { indexedVerbatim, namespaceTemplate } from "../../domain/text/fts-namespace";
import { matchExpression, quoteToken } from "../../domain/text/fts-query";
import { queryTokens } from "../../domain/text/search-tokens";
import { CHARS_PER_TOKEN_AT_MOST } from "../../domain/text/token-estimate";
import { filterSql, scopeTokenMatch } from "./d1-filter";
import { kbCountsWhere } from "./d1-kb-counts-where";
import { NODE_FIELDS, type NodeRow, nodeFields, toNode } from "./d1-node-rows";
import { splitScopes } from "./d1-scope-split";

/** Query tokens kept; long questions keep their first 96 distinct tokens. */
export const MAX_QUERY_TOKENS = 96;
const MAX_LIMIT = 500;

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
const WINDOW_FACTOR = 4;
const MIN_WINDOW = 100;
/**
 * Two-stage search ranks a window this many times wider: parents (documents, sections) are few
 * among the best-ranked rows, and the passages under them rank below the collection's best.
 */
const INSIDE_WINDOW_FACTOR = 10;

/** A MATCH string that matches nothing: no collection has the namespace "⁰". */
const NOTHING = 'fts_tokens : "⁰"';

/** The readable collections' namespaces (a collection not in kb_collections has none). */
const NAMESPACES = `ns AS (SELECT fts_ns AS ns FROM kb_collections
  WHERE name IN (SELECT value FROM json_each(?1)) AND fts_ns IS NOT NULL)`;

/** A template (namespace_template) filled with every readable namespace, OR-ed. */
const filled = (template: string) => `replace(${template}, char(1), ns.ns)`;

/**
 * The collections' matches ranked by bm25 inside FTS: ?1 collection names, ?2 [[token,
 * template]], ?3 MIN_KEPT, ?4 POSTINGS_BUDGET, `rows` ranked (RANKED: ?5, -1 = every match), as
 * CTE `top`; `before`: CTEs that `rows` reads.
 */
const ranked = (rows: string, before = "") => `WITH ${NAMESPACES},${before}
    q AS (SELECT key AS i, value ->> '$[0]' AS token, value ->> '$[1]' AS template FROM json_each(?2)),
    f AS (SELECT i, template, coalesce((SELECT sum(d.df) FROM kb_fts_df d
            WHERE d.ns IN (SELECT ns FROM ns) AND d.token = q.token), 0) AS df FROM q),
    k AS (SELECT template, row_number() OVER (ORDER BY df, i) AS r,
            sum(df) OVER (ORDER BY df, i ROWS UNBOUNDED PRECEDING) AS postings FROM f),
    m AS (SELECT 'fts_tokens : (' || group_concat(${filled("k.template")}, ' OR ') || ')' AS expr
            FROM k, ns WHERE k.r <= ?3 OR k.postings <= ?4),
    top AS (SELECT rowid AS seq, bm25(nodes_fts, 1.0, 0.0) AS rank FROM nodes_fts
            WHERE nodes_fts MATCH coalesce((SELECT expr FROM m), '${NOTHING}') ORDER BY rank LIMIT ${rows})`;
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
function twoStageSql(
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

type FamiliesAsked = { readonly of: number; readonly maxTokens: number };

/**
 * A lower bound of a family's token estimate (estimateTokens of its joined text) from its
 * characters and wide characters (nodes.wide_chars, NULL counted as 0: the bound only loosens).
 * SQLite's length counts code points, never more than the estimate's UTF-16 units, and the
 * newlines between children only add to the estimate, so a family above it is above the budget
 * (docs/decisions/0026-families-bounded-by-wide-characters.md).
 */
const familyTokensAtLeast = (fs: string) =>
  `(${fs}.wide + (${fs}.chars - ${fs}.wide) / ${CHARS_PER_TOKEN_AT_MOST}.0)`;

type TwoStageRow = NodeRow & {
  kind: 0 | 1;
  rank: number;
  hit: number;
  inside: number;
  two_stage: number;
  window_rows: number;
  family_count: number | null;
  family_text: string | null;
};

/** Kind 1 rows as families by parent id. */
function familiesOf(rows: readonly TwoStageRow[]): Map<string, Family> {
  const out = new Map<string, Family>();
  for (const r of rows)
    if (r.kind === 1)
      out.set(r.node_id, { parent: toNode(r), count: r.family_count ?? 0, text: r.family_text });
  return out;
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

export class D1KeywordIndex implements KeywordIndex {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async search(q: IndexFilter & { text: string; limit: number }): Promise<Candidate[]> {
    const tokens = queryTokens(q.text, MAX_QUERY_TOKENS).filter((t) => matchExpression([t]) !== null);
    if (tokens.length === 0 || q.nodeTypes.length === 0 || q.limit <= 0) return [];
    const limit = Math.min(q.limit, MAX_LIMIT);
    const { collections, others } = splitScopes(q.scopes);
    const [inCollections, elsewhere] = await Promise.all([
      collections.length > 0 ? this.#searchCollections(q, collections, tokens, limit) : [],
      others.length > 0 ? this.#searchScopes({ ...q, scopes: others }, tokens, limit) : [],
    ]);
    // One FTS table, one bm25: the two lists' ranks are comparable.
    return [...inCollections, ...elsewhere]
      .sort((a, b) => a.rank - b.rank)
      .slice(0, limit)
      .map((r) =>
        r.node ? { nodeId: r.nodeId, score: -r.rank, node: r.node } : { nodeId: r.nodeId, score: -r.rank },
      );
  }

  async #searchCollections(
    q: IndexFilter,
    collections: readonly string[],
    tokens: readonly string[],
    limit: number,
  ): Promise<Ranked[]> {
    const filter = filterSql(q, 6);
    const run = (finalLimit: number | null, rows: number) =>
      this.#db
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

  async searchTwoStage(
    q: IndexFilter & {
      text: string;
      limit: number;
      parentTypes: readonly NodeType[];
      parents: number;
      above: number;
      families?: FamiliesAsked;
    },
  ): Promise<TwoStageHits | null> {
    const { collections, others } = splitScopes(q.scopes);
    // Other scopes rank apart (#searchScopes); the flat search serves them.
    if (others.length > 0 || collections.length === 0 || q.rootIds) return null;
    const tokens = queryTokens(q.text, MAX_QUERY_TOKENS).filter((t) => matchExpression([t]) !== null);
    if (tokens.length === 0 || q.nodeTypes.length === 0 || q.limit <= 0) return { hits: [], inside: null };
    const limit = Math.min(q.limit, MAX_LIMIT);
    const hitFilter = filterSql(q, 6);
    const parentFilter = filterSql({ ...q, nodeTypes: q.parentTypes }, 6 + hitFilter.params.length);
    const sized = 6 + hitFilter.params.length + parentFilter.params.length;
    const narrow = Math.max(limit * WINDOW_FACTOR, MIN_WINDOW);
    const families = {
      of: Math.max(0, q.families?.of ?? 0),
      maxTokens: Math.max(0, q.families?.maxTokens ?? 0),
    };
    const { results } = await this.#db
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
    if (
      hits.length < limit &&
      first.window_rows >= (first.two_stage ? narrow * INSIDE_WINDOW_FACTOR : narrow)
    )
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

  async #searchScopes(q: IndexFilter, tokens: readonly string[], limit: number): Promise<Ranked[]> {
    const words = matchExpression(tokens);
    const scopes = scopeTokenMatch(q);
    if (!words || !scopes) return [];
    const filter = filterSql(q, 3);
    const { results } = await this.#db
      .prepare(
        `SELECT bm25(nodes_fts, 1.0, 0.0) AS rank, ${nodeFields("n")}
         FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid
         WHERE nodes_fts MATCH ?1 AND ${filter.where}
         ORDER BY rank LIMIT ?2`,
      )
      .bind(`fts_tokens : (${words}) AND ${scopes}`, limit, ...filter.params)
      .all<NodeRow & { rank: number }>();
    return results.map((r) => ({ nodeId: r.node_id, rank: r.rank, node: toNode(r) }));
  }

  /**
   * Collections: one statement giving their row count and the frequencies of Han/kana tokens
   * from kb_fts_df, and an FTS count per other token (porter stems Latin words, a dotted or
   * hyphenated token is a phrase) in the namespaced postings alone. Other scopes: one batch of
   * the scopes' row count, then one count per token, both AND-ed with the scope_token column.
   */
  async frequencies(q: IndexFilter & { tokens: readonly string[] }): Promise<TermFrequencies> {
    const tokens = [...new Set(q.tokens)].slice(0, MAX_QUERY_TOKENS);
    const { collections, others } = splitScopes(q.scopes);
    if (tokens.length === 0 || (collections.length === 0 && others.length === 0)) {
      return { rows: 0, df: new Map() };
    }
    const parts = await Promise.all([
      collections.length > 0 ? this.#collectionFrequencies(collections, tokens) : null,
      others.length > 0 ? this.#scopeFrequencies({ ...q, scopes: others }, tokens) : null,
    ]);
    const df = new Map<string, number>();
    let rows = 0;
    for (const p of parts) {
      if (!p) continue;
      rows += p.rows;
      for (const [t, n] of p.df) df.set(t, (df.get(t) ?? 0) + n);
    }
    return { rows, df };
  }

  async #collectionFrequencies(
    collections: readonly string[],
    tokens: readonly string[],
  ): Promise<TermFrequencies> {
    // "" counts the collections' rows (kb_fts_df keeps it per namespace). Han/kana tokens are
    // indexed verbatim and counted in kb_fts_df; others (porter stems Latin words, a dotted or
    // hyphenated token is a phrase) are counted by FTS in the namespaced postings alone.
    const asked = [
      ["", "", 1],
      ...tokens.flatMap((t) =>
        indexedVerbatim(t)
          ? [[t, "", 1]]
          : matchExpression([t]) !== null
            ? [[t, namespaceTemplate(t), 0]]
            : [],
      ),
    ];
    // One statement: the counts per token are correlated subqueries, so FTS5 sees each token's
    // MATCH string as a constant. Started beside the search and the size, it travels with them.
    const { results } = await this.#db
      .prepare(
        `WITH ${NAMESPACES}
         SELECT t.value ->> '$[0]' AS token, CASE WHEN t.value ->> '$[2]' THEN
             coalesce((SELECT sum(d.df) FROM kb_fts_df d
               WHERE d.ns IN (SELECT ns FROM ns) AND d.token = t.value ->> '$[0]'), 0)
           ELSE (SELECT count(*) FROM nodes_fts WHERE nodes_fts MATCH coalesce(
             (SELECT 'fts_tokens : (' || group_concat(${filled("(t.value ->> '$[1]')")}, ' OR ') || ')' FROM ns),
             '${NOTHING}')) END AS n
         FROM json_each(?2) AS t`,
      )
      .bind(JSON.stringify(collections), JSON.stringify(asked))
      .all<{ token: string; n: number }>();
    const df = new Map<string, number>();
    let rows = 0;
    for (const r of results) {
      if (r.token === "") rows = r.n;
      else df.set(r.token, r.n);
    }
    for (const t of tokens) if (!df.has(t)) df.set(t, 0);
    return { rows, df };
  }

  async #scopeFrequencies(q: IndexFilter, tokens: readonly string[]): Promise<TermFrequencies> {
    const scopes = scopeTokenMatch(q);
    if (!scopes) return { rows: 0, df: new Map() };
    const count = (match: string) =>
      this.#db.prepare("SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH ?1").bind(match);
    const results = await this.#db.batch<{ n: number }>([
      count(scopes),
      ...tokens.map((t) => count(`fts_tokens : ${quoteToken(t)} AND ${scopes}`)),
    ]);
    const n = (i: number) => results[i]?.results[0]?.n ?? 0;
    return { rows: n(0), df: new Map(tokens.map((t, i) => [t, n(i + 1)])) };
  }
}

type Ranked = { nodeId: string; rank: number; node?: ContextNode };

/** A row the filter passed with its fields carried (raw_text is never NULL in `nodes`) keeps them. */
const candidate = (r: Row): Ranked =>
  r.ok && r.node_id !== null && r.raw_text !== null
    ? // Carried rows hold every field (the join of `nodes` gives all or none of them).
      { nodeId: r.node_id, rank: r.rank, node: toNode(r as NodeRow) }
    : { nodeId: r.node_id ?? "", rank: r.rank };
