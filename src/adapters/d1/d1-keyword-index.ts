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
import type { Candidate, IndexFilter, KeywordIndex, TermFrequencies } from "../../domain/retrieval/ports";
import { indexedVerbatim, namespaceTemplate } from "../../domain/text/fts-namespace";
import { matchExpression, quoteToken } from "../../domain/text/fts-query";
import { queryTokens } from "../../domain/text/search-tokens";
import { filterSql, scopeTokenMatch } from "./d1-filter";
import { splitScopes } from "./d1-scope-split";

/** Query tokens kept; long questions keep their first 96 distinct tokens. */
export const MAX_QUERY_TOKENS = 96;
const MAX_LIMIT = 500;

/**
 * Postings a collection search may read: the rarest tokens are kept while the sum of their
 * document frequencies stays within this, and always the MIN_KEPT rarest. Below a few
 * thousand passages every token fits, so small collections rank on all of their tokens; in
 * a large one the tokens that most rows hold (which add little to bm25 but most of the
 * work) are left out. Measured in docs/storage.md#full-text-index.
 */
export const POSTINGS_BUDGET = 20_000;
export const MIN_KEPT = 4;

/** Rows bm25 ranks inside FTS before the SQL filter, per candidate asked for. */
const WINDOW_FACTOR = 4;
const MIN_WINDOW = 100;

/** A MATCH string that matches nothing: no collection has the namespace "⁰". */
const NOTHING = 'fts_tokens : "⁰"';

/** The readable collections' namespaces (a collection not in kb_collections has none). */
const NAMESPACES = `ns AS (SELECT fts_ns AS ns FROM kb_collections
  WHERE name IN (SELECT value FROM json_each(?1)) AND fts_ns IS NOT NULL)`;

/** A template (namespace_template) filled with every readable namespace, OR-ed. */
const filled = (template: string) => `replace(${template}, char(1), ns.ns)`;

/**
 * The collection search: ?1 collection names, ?2 [[token, template]], ?3 MIN_KEPT,
 * ?4 POSTINGS_BUDGET, ?5 rows ranked inside FTS, filter from ?6. With `limit` null the
 * ranked window comes back with the filter's verdict per row; otherwise ?5 is -1 and the
 * filter applies in SQL to every match (rootIds, or a window the filter emptied).
 */
function collectionSearchSql(where: string, limit: number | null): string {
  return `WITH ${NAMESPACES},
    q AS (SELECT key AS i, value ->> '$[0]' AS token, value ->> '$[1]' AS template FROM json_each(?2)),
    f AS (SELECT i, template, coalesce((SELECT sum(d.df) FROM kb_fts_df d
            WHERE d.ns IN (SELECT ns FROM ns) AND d.token = q.token), 0) AS df FROM q),
    k AS (SELECT template, row_number() OVER (ORDER BY df, i) AS r,
            sum(df) OVER (ORDER BY df, i ROWS UNBOUNDED PRECEDING) AS postings FROM f),
    m AS (SELECT 'fts_tokens : (' || group_concat(${filled("k.template")}, ' OR ') || ')' AS expr
            FROM k, ns WHERE k.r <= ?3 OR k.postings <= ?4),
    top AS (SELECT rowid AS seq, bm25(nodes_fts, 1.0, 0.0) AS rank FROM nodes_fts
            WHERE nodes_fts MATCH coalesce((SELECT expr FROM m), '${NOTHING}') ORDER BY rank LIMIT ?5)
    ${
      limit === null
        ? `SELECT n.node_id AS node_id, top.rank AS rank, coalesce(${where}, 0) AS ok
           FROM top LEFT JOIN nodes n ON n.seq = top.seq ORDER BY top.rank`
        : `SELECT n.node_id AS node_id, top.rank AS rank, 1 AS ok
           FROM top JOIN nodes n ON n.seq = top.seq WHERE ${where} ORDER BY top.rank LIMIT ${Math.trunc(limit)}`
    }`;
}

type Row = { node_id: string | null; rank: number; ok: number };

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
      .map((r) => ({ nodeId: r.nodeId, score: -r.rank }));
  }

  async #searchCollections(
    q: IndexFilter,
    collections: readonly string[],
    tokens: readonly string[],
    limit: number,
  ): Promise<{ nodeId: string; rank: number }[]> {
    const filter = filterSql(q, 6);
    const run = (finalLimit: number | null, rows: number) =>
      this.#db
        .prepare(collectionSearchSql(filter.where, finalLimit))
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

  async #searchScopes(
    q: IndexFilter,
    tokens: readonly string[],
    limit: number,
  ): Promise<{ nodeId: string; rank: number }[]> {
    const words = matchExpression(tokens);
    const scopes = scopeTokenMatch(q);
    if (!words || !scopes) return [];
    const filter = filterSql(q, 3);
    const { results } = await this.#db
      .prepare(
        `SELECT n.node_id AS node_id, bm25(nodes_fts, 1.0, 0.0) AS rank
         FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid
         WHERE nodes_fts MATCH ?1 AND ${filter.where}
         ORDER BY rank LIMIT ?2`,
      )
      .bind(`fts_tokens : (${words}) AND ${scopes}`, limit, ...filter.params)
      .all<{ node_id: string; rank: number }>();
    return results.map((r) => ({ nodeId: r.node_id, rank: r.rank }));
  }

  /**
   * One batch. Collections: their row count and the frequencies of Han/kana tokens from
   * kb_fts_df, and one FTS count per other token (porter stems Latin words, a dotted or
   * hyphenated token is a phrase) in the namespaced postings alone. Other scopes: the
   * scopes' row count, then one count per token, both AND-ed with the scope_token column.
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
    const names = JSON.stringify(collections);
    const counted = ["", ...tokens.filter(indexedVerbatim)];
    const searched = tokens.filter((t) => !indexedVerbatim(t) && matchExpression([t]) !== null);
    const [table, ...fts] = await this.#db.batch<{ token: string; n: number }>([
      this.#db
        .prepare(
          `WITH ${NAMESPACES}
           SELECT t.value AS token, coalesce((SELECT sum(d.df) FROM kb_fts_df d
             WHERE d.ns IN (SELECT ns FROM ns) AND d.token = t.value), 0) AS n
           FROM json_each(?2) AS t`,
        )
        .bind(names, JSON.stringify(counted)),
      ...searched.map((t) =>
        this.#db
          .prepare(
            `WITH ${NAMESPACES}
             SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH coalesce(
               (SELECT 'fts_tokens : (' || group_concat(${filled("?2")}, ' OR ') || ')' FROM ns), '${NOTHING}')`,
          )
          .bind(names, namespaceTemplate(t)),
      ),
    ]);
    const df = new Map<string, number>();
    let rows = 0;
    for (const r of table?.results ?? []) {
      if (r.token === "") rows = r.n;
      else df.set(r.token, r.n);
    }
    for (const [i, t] of searched.entries()) df.set(t, fts[i]?.results[0]?.n ?? 0);
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

const candidate = (r: Row) => ({ nodeId: r.node_id ?? "", rank: r.rank });
