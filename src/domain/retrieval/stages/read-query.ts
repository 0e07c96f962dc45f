/**
 * The query as the pipeline's stages read it (docs/retrieval.md#pipeline), worked out once per
 * search: what is asked about (question phrasing cut, question-phrases.ts), its search tokens,
 * its turns (earlier user turns first, the asking turn last) and the content words of every
 * turn, weighted by how recent their turn is — later weighted by IDF once the keyword index
 * has counted them (`weightedTerms`).
 */
import { focusedQueryTokens, identifierCompounds, queryTokens } from "../../text/search-tokens";
import { partsOf, turnWeightedTerms } from "../field-score";
import type { TermFrequencies } from "../ports";
import { withoutQuestionPhrases } from "../question-phrases";
import { isQuestionWord } from "../question-words";
import type { RetrievalOptions } from "../retrieval-options";

export type ReadQuery = {
  /** The query as asked: what is embedded, and where hints look for names. */
  readonly text: string;
  /** What is asked about: what the keyword index searches. */
  readonly asked: string;
  readonly tokens: ReadonlySet<string>;
  readonly turns: readonly string[];
  /** Content words by their turn's weight, when fielded scoring or the floor reads them; else null. */
  readonly turnWeights: ReadonlyMap<string, number> | null;
};

export function readQuery(text: string, options: RetrievalOptions): ReadQuery {
  // Terms come from what is asked about, not from how it is asked (question-phrases.ts).
  const asked = withoutQuestionPhrases(text);
  const turns = queryTurns(asked);
  return {
    text,
    asked,
    tokens: new Set(queryTokens(asked, 96)),
    turns,
    // Fielded scoring and the floor weigh the content words of every turn, counted in one
    // frequencies batch.
    turnWeights:
      options.fields.headingWeight > 0 || options.coverage.relevanceFloor > 0
        ? turnWeightedTerms(turns, evidenceTokens)
        : null,
  };
}

/** The tokens whose document frequencies the keyword index is asked for (none: no batch). */
export const countedTokens = (q: ReadQuery): string[] => [...(q.turnWeights?.keys() ?? [])].flatMap(partsOf);

/** Each content word's IDF in the readable scopes times its turn's weight; null without counts. */
export function weightedTerms(
  q: ReadQuery,
  frequencies: TermFrequencies | undefined,
): Map<string, number> | null {
  const turnWeights = q.turnWeights;
  if (!frequencies || !turnWeights) return null;
  const idf = idfWeights(new Set(turnWeights.keys()), frequencies);
  return new Map([...idf].map(([t, w]) => [t, w * (turnWeights.get(t) ?? 0)]));
}

/** The query's lines: with earlier turns prepended (oldest first), the last says what is asked. */
export function queryTurns(query: string): string[] {
  const lines = query.split("\n").filter((l) => l.trim() !== "");
  return lines.length > 0 ? lines : [query];
}

/**
 * The floor's evidence tokens: the query's ICU words (single unknown characters joined into
 * bigrams), without question words. Cross-word bigrams ("么写", "个可") are left out: they
 * are rare in any text, so as IDF weights they would outweigh the words that carry meaning.
 */
export function evidenceTokens(query: string): string[] {
  return [...identifierCompounds(query), ...focusedQueryTokens(query, 32)].filter((t) => !isQuestionWord(t));
}

/** BM25's IDF of each token in the readable scopes, ln(1 + (N − df + ½) / (df + ½)). */
export function idfWeights(query: ReadonlySet<string>, f: TermFrequencies): Map<string, number> {
  const out = new Map<string, number>();
  const dfOf = (t: string) => Math.min(f.df.get(t) ?? 0, f.rows);
  for (const t of query) {
    // A long word may be indexed only as its bigrams: its frequency is at least the word's own
    // count and at most its rarest bigram's; take the larger, the cautious weight.
    const parts = partsOf(t).slice(1);
    const bestDf = parts.length > 0 ? Math.max(dfOf(t), Math.min(...parts.map(dfOf))) : dfOf(t);
    out.set(t, Math.log(1 + (f.rows - bestDf + 0.5) / (bestDf + 0.5)));
  }
  return out;
}
