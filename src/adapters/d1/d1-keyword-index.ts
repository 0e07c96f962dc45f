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
 *
 * The collection search is d1-collection-search.ts (its ranking d1-collection-ranking.ts),
 * two-stage search d1-two-stage-search.ts, the term frequencies d1-term-frequencies.ts.
 */
import type {
  Candidate,
  IndexFilter,
  KeywordIndex,
  TermFrequencies,
  TwoStageHits,
} from "../../domain/retrieval/ports";
import { matchExpression } from "../../domain/text/fts-query";
import { queryTokens } from "../../domain/text/search-tokens";
import { type Ranked, searchCollections } from "./d1-collection-search";
import { filterSql, scopeTokenMatch } from "./d1-filter";
import { type NodeRow, nodeFields, toNode } from "./d1-node-rows";
import { splitScopes } from "./d1-scope-split";
import { collectionFrequencies, scopeFrequencies } from "./d1-term-frequencies";
import { searchTwoStage, type TwoStageQuery } from "./d1-two-stage-search";

/** Query tokens kept; long questions keep their first 96 distinct tokens. */
export const MAX_QUERY_TOKENS = 96;
const MAX_LIMIT = 500;

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
      collections.length > 0 ? searchCollections(this.#db, q, collections, tokens, limit) : [],
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

  async searchTwoStage(q: TwoStageQuery): Promise<TwoStageHits | null> {
    const { collections, others } = splitScopes(q.scopes);
    // Other scopes rank apart (#searchScopes); the flat search serves them.
    if (others.length > 0 || collections.length === 0 || q.rootIds) return null;
    const tokens = queryTokens(q.text, MAX_QUERY_TOKENS).filter((t) => matchExpression([t]) !== null);
    if (tokens.length === 0 || q.nodeTypes.length === 0 || q.limit <= 0) return { hits: [], inside: null };
    const limit = Math.min(q.limit, MAX_LIMIT);
    return searchTwoStage(this.#db, q, collections, tokens, limit);
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
      collections.length > 0 ? collectionFrequencies(this.#db, collections, tokens) : null,
      others.length > 0 ? scopeFrequencies(this.#db, { ...q, scopes: others }, tokens) : null,
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
}
