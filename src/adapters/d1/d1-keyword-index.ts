/**
 * KeywordIndex over `nodes_fts` (migration 0002): the query's application-side tokens, each
 * quoted, OR-ed inside the retrieval_tokens column and AND-ed with the scope_token column,
 * so FTS itself reads only rows of readable scopes; bm25 weighs the token column alone.
 * The SQL filter on the joined row (status, type, scope) stays the authoritative check.
 */
import type { Candidate, IndexFilter, KeywordIndex, TermFrequencies } from "../../domain/retrieval/ports";
import { matchExpression, quoteToken } from "../../domain/text/fts-query";
import { queryTokens } from "../../domain/text/search-tokens";
import { filterSql, scopeTokenMatch } from "./d1-filter";

/** Query tokens kept; long questions keep their first 64 distinct tokens. */
export const MAX_QUERY_TOKENS = 96;
const MAX_LIMIT = 500;

export class D1KeywordIndex implements KeywordIndex {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async search(q: IndexFilter & { text: string; limit: number }): Promise<Candidate[]> {
    const words = matchExpression(queryTokens(q.text, MAX_QUERY_TOKENS));
    const scopes = scopeTokenMatch(q);
    if (!words || !scopes || q.nodeTypes.length === 0 || q.limit <= 0) return [];
    const match = `retrieval_tokens : (${words}) AND ${scopes}`;
    const filter = filterSql(q, 3);
    const { results } = await this.#db
      .prepare(
        `SELECT n.node_id, bm25(nodes_fts, 1.0, 0.0) AS rank
         FROM nodes_fts JOIN nodes n ON n.seq = nodes_fts.rowid
         WHERE nodes_fts MATCH ?1 AND ${filter.where}
         ORDER BY rank LIMIT ?2`,
      )
      .bind(match, Math.min(q.limit, MAX_LIMIT), ...filter.params)
      .all<{ node_id: string; rank: number }>();
    return results.map((r) => ({ nodeId: r.node_id, score: -r.rank }));
  }

  /** One batch: the scopes' row count, then one count per token, all answered by FTS alone. */
  async frequencies(q: IndexFilter & { tokens: readonly string[] }): Promise<TermFrequencies> {
    const scopes = scopeTokenMatch(q);
    const tokens = [...new Set(q.tokens)].slice(0, MAX_QUERY_TOKENS);
    if (!scopes || tokens.length === 0) return { rows: 0, df: new Map() };
    const count = (match: string) =>
      this.#db.prepare("SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH ?1").bind(match);
    const results = await this.#db.batch<{ n: number }>([
      count(scopes),
      ...tokens.map((t) => count(`retrieval_tokens : ${quoteToken(t)} AND ${scopes}`)),
    ]);
    const n = (i: number) => results[i]?.results[0]?.n ?? 0;
    return { rows: n(0), df: new Map(tokens.map((t, i) => [t, n(i + 1)])) };
  }
}
