/**
 * Application-side tokenization for FTS5 (docs/retrieval.md#tokenization).
 *
 * FTS5's built-in tokenizers cannot segment Chinese: unicode61 makes a whole CJK run one
 * token and trigram misses two-character words. So text is tokenized here — ICU word
 * segments from Intl.Segmenter, plus overlapping bigrams of every CJK run, plus Latin words
 * NFKC-normalized and lowercased — and the FTS table stores the tokens joined by spaces.
 * Index and query must use these same functions; changing them means rebuilding FTS rows.
 */

import { wordSegments } from "./word-segments";

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** Longest token kept; longer runs (URLs, hashes) add nothing searchable. */
const MAX_TOKEN_LENGTH = 48;

/** Normalization applied to everything indexed or searched. */
export function normalizeForSearch(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

/**
 * Index tokens, in order of appearance, repeats kept so that bm25 sees term frequency.
 */
export function searchTokens(text: string): string[] {
  const normalized = normalizeForSearch(text);
  const tokens: string[] = [];
  for (const segment of wordSegments(normalized)) {
    if (segment.length <= MAX_TOKEN_LENGTH) tokens.push(segment);
  }
  for (const [run] of normalized.matchAll(CJK_RUN)) {
    for (let i = 0; i + 2 <= run.length; i++) tokens.push(run.slice(i, i + 2));
  }
  return tokens;
}

/** The string stored in an FTS row. */
export function indexText(...parts: ReadonlyArray<string | null | undefined>): string {
  return parts
    .filter((p): p is string => typeof p === "string" && p.length > 0)
    .flatMap(searchTokens)
    .join(" ");
}

/**
 * Function words that match nearly every Chinese row; as OR terms they only slow the
 * query and blur ranking. Bigrams that contain them are kept.
 */
const QUERY_STOPWORDS: ReadonlySet<string> = new Set([
  "的",
  "了",
  "是",
  "在",
  "我",
  "你",
  "他",
  "她",
  "它",
  "们",
  "和",
  "与",
  "就",
  "都",
  "也",
  "吗",
  "呢",
  "吧",
  "啊",
  "呀",
  "么",
  "这",
  "那",
  "有",
  "个",
  "着",
  "把",
  "被",
  "让",
  "给",
  "对",
  "从",
  "到",
  "说",
  "要",
  "会",
  "能",
  "还",
  "又",
  "很",
  "没",
  "不",
  "哦",
  "嗯",
  "the",
  "a",
  "an",
  "of",
  "to",
  "is",
  "are",
  "and",
  "or",
  "in",
  "on",
  "at",
  "for",
  "what",
  "who",
  "how",
  "do",
  "does",
  "did",
  "i",
  "you",
  "it",
  "was",
  "were",
  "be",
  "been",
  "has",
  "have",
  "had",
  "he",
  "she",
  "his",
  "her",
  "they",
  "them",
  "their",
  "we",
  "my",
  "me",
  "your",
  "this",
  "that",
  "these",
  "those",
  "with",
  "from",
  "by",
  "as",
  "about",
  "into",
  "when",
  "where",
  "which",
  "why",
  "whom",
  "whose",
  "would",
  "could",
  "should",
  "will",
  "can",
  "there",
  "any",
  "some",
  "so",
  "if",
  "than",
  "then",
  "also",
  "not",
  "no",
  "yes",
]);

const COMPOUND = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;
const LATIN_LETTER = /\p{Script=Latin}/u;

/**
 * Hyphenated Latin identifiers of the text ("v-if", "v-model", "keep-alive"), normalized.
 * The segmenter splits them at the hyphen, and a part alone is often a stopword ("if",
 * "for") or a letter found everywhere ("v"); whole, they name one API. Quoted in a MATCH
 * expression, FTS5's tokenizer splits the compound again into a phrase of adjacent tokens,
 * so the index needs no new token for it (docs/decisions/0011-hyphenated-identifiers-searched-whole.md).
 */
export function identifierCompounds(text: string): string[] {
  return [...new Set(compoundOccurrences(text))];
}

/** Every occurrence of a hyphenated identifier, repeats kept (term frequency). */
export function compoundOccurrences(text: string): string[] {
  const out: string[] = [];
  const normalized = normalizeForSearch(text);
  // Every compound holds a "-": without one there is nothing to find, and the pattern would
  // otherwise try (and backtrack over) every letter run of the text, the slowest part of
  // tokenizing a Chinese query.
  if (!normalized.includes("-")) return out;
  for (const [m] of normalized.matchAll(COMPOUND)) {
    if (m.length <= MAX_TOKEN_LENGTH && LATIN_LETTER.test(m) && !CJK_ANY.test(m)) out.push(m);
  }
  return out;
}

const CJK_ANY = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Query tokens: hyphenated identifiers whose parts alone say little (a stopword or a single
 * letter: "v-if", "v-for") first, as phrases, then the distinct tokens without stopwords,
 * capped so that a pasted essay stays cheap. Compounds of ordinary words ("pre-season") are
 * left to their parts, which already find them.
 */
export function queryTokens(text: string, limit = 32): string[] {
  const distinct = [...new Set(searchTokens(text))].filter((t) => !QUERY_STOPWORDS.has(t));
  const compounds = identifierCompounds(text).filter((c) =>
    c.split("-").some((part) => part.length === 1 || QUERY_STOPWORDS.has(part)),
  );
  return [...compounds, ...distinct].slice(0, limit);
}

const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

/**
 * A shorter query for cheap, precise lookups (per-turn history recall): the ICU words of the
 * text, with runs of single CJK characters (words the dictionary did not know) joined into
 * bigrams instead of kept as single characters, and without the cross-word bigrams that
 * queryTokens adds for recall. Every term costs a seek per FTS segment, so fewer, more
 * specific terms keep the query fast. Every token produced here is also an index token.
 */
export function focusedQueryTokens(text: string, limit = 12): string[] {
  const segments = wordSegments(normalizeForSearch(text));
  const tokens: string[] = [];
  let run = "";
  const flush = () => {
    if (run.length === 1) tokens.push(run);
    for (let i = 0; i + 2 <= run.length; i++) tokens.push(run.slice(i, i + 2));
    run = "";
  };
  for (const segment of segments) {
    if (CJK_CHAR.test(segment)) {
      run += segment;
      continue;
    }
    flush();
    if (segment.length <= MAX_TOKEN_LENGTH) tokens.push(segment);
  }
  flush();
  return [...new Set(tokens)].filter((t) => !QUERY_STOPWORDS.has(t)).slice(0, limit);
}
