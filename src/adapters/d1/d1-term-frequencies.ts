/**
 * Document frequencies of query tokens for the relevance floor (d1-keyword-index.ts): counts
 * only, no row leaves these statements.
 */
import type { IndexFilter, TermFrequencies } from "../../domain/retrieval/ports";
import { indexedVerbatim, namespaceTemplate } from "../../domain/text/fts-namespace";
import { matchExpression, quoteToken } from "../../domain/text/fts-query";
import { filled, NAMESPACES, NOTHING } from "./d1-collection-ranking";
import { scopeTokenMatch } from "./d1-filter";

/** The collections' row count and each token's frequency in them. */
export async function collectionFrequencies(
  db: D1Database,
  collections: readonly string[],
  tokens: readonly string[],
): Promise<TermFrequencies> {
  // "" counts the collections' rows (kb_fts_df keeps it per namespace). Han/kana tokens are
  // indexed verbatim and counted in kb_fts_df; others (porter stems Latin words, a dotted or
  // hyphenated token is a phrase) are counted by FTS in the namespaced postings alone.
  const asked = [
    ["", "", 1],
    ...tokens.flatMap((t) =>
      indexedVerbatim(t) ? [[t, "", 1]] : matchExpression([t]) !== null ? [[t, namespaceTemplate(t), 0]] : [],
    ),
  ];
  // One statement: the counts per token are correlated subqueries, so FTS5 sees each token's
  // MATCH string as a constant. Started beside the search and the size, it travels with them.
  const { results } = await db
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

/** The other scopes' row count and each token's frequency in them, AND-ed with the scope_token column. */
export async function scopeFrequencies(
  db: D1Database,
  q: IndexFilter,
  tokens: readonly string[],
): Promise<TermFrequencies> {
  const scopes = scopeTokenMatch(q);
  if (!scopes) return { rows: 0, df: new Map() };
  const count = (match: string) =>
    db.prepare("SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH ?1").bind(match);
  const results = await db.batch<{ n: number }>([
    count(scopes),
    ...tokens.map((t) => count(`fts_tokens : ${quoteToken(t)} AND ${scopes}`)),
  ]);
  const n = (i: number) => results[i]?.results[0]?.n ?? 0;
  return { rows: n(0), df: new Map(tokens.map((t, i) => [t, n(i + 1)])) };
}
