/**
 * Fielded re-scoring of the keyword index's candidates (docs/retrieval.md#pipeline): the query's
 * content words, weighted by BM25 IDF in the readable scopes and by how recent the turn that
 * says them is, scored against two fields of each candidate — its heading path (source title
 * and headings) and its body — with the heading field weighted far above the body, as
 * RAGFlow's full-text query weighs titles above content. It runs in the Worker over the
 * candidates FTS already returned, so it costs no index change and at most the one
 * frequencies batch the relevance floor also uses.
 */
import { compoundOccurrences, searchTokens } from "../text/search-tokens";
import type { ContextNode } from "./context-node";
import { isQuestionWord } from "./question-words";

/** A query term: its IDF in the readable scopes times its turn's weight. */
export type TermWeights = ReadonlyMap<string, number>;

export type FieldScoreOptions = {
  /** Weight of a term found in the heading path, against 1 for a saturated body match. */
  readonly heading: number;
  readonly k1: number;
  readonly b: number;
  /**
   * Discount of heading matches that a node only inherits (0 = none): when no content word of
   * its own (innermost) heading is a query term, its heading terms count 1 − `own`. A child
   * section repeats its parent's headings in its path; when its own heading names nothing
   * asked ("自定义过渡组 class" under "移动动画"), the match is its parent's, and the parent —
   * or a sibling whose own heading is what is asked — ranks first.
   */
  readonly own?: number;
  /**
   * The asking turn's terms, for a query read with earlier turns (absent: every term is asked
   * now). A follow-up's own-heading match on a word only an earlier turn said counts
   * EARLIER_OWN_HEADING: the section whose heading names what was asked before is most likely
   * what that turn was answered with ("具名插槽怎么写？" → "那插槽的名字能动态决定吗？").
   */
  readonly asked?: ReadonlySet<string>;
};

/**
 * Share of the heading weight an own-heading match on an earlier turn's word keeps
 * (docs/decisions/0024-earlier-turn-own-heading-counts-half.md).
 */
export const EARLIER_OWN_HEADING = 0.5;

/**
 * Measured on the vue-docs dev set: 0.25 and 0.5 gave the same ranking, 1 lost
 * (docs/decisions/0012-inherited-heading-matches-count-half.md).
 */
export const OWN_HEADING = 0.5;

export const DEFAULT_FIELD_SCORE: FieldScoreOptions = { heading: 3, k1: 1.2, b: 0.75, own: OWN_HEADING };

/** Weight of a turn one step further back than the next (the latest turn weighs 1). */
export const EARLIER_TURN_WEIGHT = 0.5;

const CJK_WORD = /^[\p{Script=Han}]{3,}$/u;

/** A long CJK word and its bigrams: segmentation differs by context, the bigrams do not. */
export const partsOf = (t: string): string[] =>
  CJK_WORD.test(t) ? [t, ...Array.from({ length: t.length - 1 }, (_, i) => t.slice(i, i + 2))] : [t];

/**
 * The query's content words per turn (lines, oldest first): ICU words of each turn without
 * stop and question words, each weighted 1 in the latest turn and halved per turn further
 * back — the follow-up "那它的缓存呢" keeps the subject its previous turn named, at half the
 * weight of what it asks now. A word said in several turns keeps its largest weight.
 */
export function turnWeightedTerms(
  turns: readonly string[],
  wordsOf: (text: string) => string[],
): Map<string, number> {
  const out = new Map<string, number>();
  turns.forEach((turn, i) => {
    const w = EARLIER_TURN_WEIGHT ** (turns.length - 1 - i);
    for (const t of wordsOf(turn)) {
      if (isQuestionWord(t)) continue;
      out.set(t, Math.max(out.get(t) ?? 0, w));
    }
  });
  return out;
}

/** Token counts of a text, for presence and term frequency. */
export function tokenCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  // Hyphenated identifiers count whole too, as the query names them (identifierCompounds).
  for (const t of [...searchTokens(text), ...compoundOccurrences(text)])
    counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** Occurrences of a term: itself, or for a long CJK word the fewest of its bigrams. */
export function occurrences(counts: ReadonlyMap<string, number>, term: string): number {
  const own = counts.get(term) ?? 0;
  const parts = partsOf(term).slice(1);
  if (parts.length === 0) return own;
  return Math.max(own, Math.min(...parts.map((p) => counts.get(p) ?? 0)));
}

/** The heading field of a node: its source title and its heading path. */
export const headingText = (node: ContextNode): string => [node.title ?? "", ...node.path].join(" \n ");

export type Fielded = {
  readonly heading: Map<string, number>;
  readonly body: Map<string, number>;
  /** Content words of the node's own (innermost) heading, tokenized as the query is. */
  readonly own?: readonly string[];
};

/** `wordsOf` tokenizes the own heading as the query's terms are tokenized. */
export const fieldsOf = (node: ContextNode, wordsOf?: (text: string) => string[]): Fielded => ({
  heading: tokenCounts(headingText(node)),
  body: tokenCounts(node.rawText),
  own: wordsOf ? wordsOf(ownHeading(node)).filter((t) => !isQuestionWord(t)) : [],
});

/** The innermost heading without markup (badges) and bracketed glosses ("Inject (注入)"). */
const ownHeading = (node: ContextNode): string =>
  (node.path.at(-1) ?? "").replace(/<[^>]*>/g, " ").replace(/[（(][^）)]*[）)]/g, " ");

/**
 * True when the node's own heading names a query term, or it has none (a document's lead text).
 * A presence test, not a share: a share of the heading's words penalized the long descriptive
 * headings of guide sections ("减少大型不可变数据的响应性开销") and lost
 * (docs/decisions/0012-inherited-heading-matches-count-half.md).
 */
export function namesOwnHeading(terms: TermWeights, own: readonly string[]): boolean {
  return own.length === 0 || own.some((t) => terms.has(t));
}

/** Body length in tokens, for BM25's length normalization. */
const lengthOf = (f: Fielded): number => {
  let n = 0;
  for (const c of f.body.values()) n += c;
  return n;
};

/**
 * Scores each node: Σ over query terms of weight × (heading × [term in heading path] × own-heading
 * factor + BM25's saturated body frequency), the body normalized by the candidates' mean length.
 */
export function fieldScores(
  terms: TermWeights,
  nodes: readonly { readonly id: string; readonly fields: Fielded }[],
  options: FieldScoreOptions = DEFAULT_FIELD_SCORE,
): Map<string, number> {
  const lengths = nodes.map((n) => lengthOf(n.fields));
  const mean = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length) || 1;
  const out = new Map<string, number>();
  nodes.forEach((n, i) => {
    const norm = options.k1 * (1 - options.b + (options.b * (lengths[i] ?? 0)) / mean);
    const own = n.fields.own ?? [];
    const ownFactor = namesOwnHeading(terms, own) ? 1 : 1 - (options.own ?? 0);
    let score = 0;
    for (const [term, weight] of terms) {
      const earlier = options.asked !== undefined && !options.asked.has(term) && own.includes(term);
      const inHeading =
        occurrences(n.fields.heading, term) > 0 ? ownFactor * (earlier ? EARLIER_OWN_HEADING : 1) : 0;
      const tf = occurrences(n.fields.body, term);
      score += weight * (options.heading * inHeading + (tf * (options.k1 + 1)) / (tf + norm));
    }
    out.set(n.id, score);
  });
  return out;
}

/**
 * The share of the query's weight a node holds in either field: the relevance floor's measure.
 */
export function fieldCoverage(terms: TermWeights, fields: Fielded): number {
  let total = 0;
  let found = 0;
  for (const [term, weight] of terms) {
    total += weight;
    if (occurrences(fields.heading, term) > 0 || occurrences(fields.body, term) > 0) found += weight;
  }
  return total > 0 ? found / total : 0;
}
