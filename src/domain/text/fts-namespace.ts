/**
 * Namespaced FTS tokens of knowledge collections (migration 0200, docs/storage.md#full-text-index).
 *
 * A collection's FTS rows index every token with the collection's namespace in front
 * (superscript digits, which NFKC normalization removes from every indexed token, so no
 * token of another row can look namespaced). FTS5's unicode61 tokenizer splits a token at
 * its separators ("vue.js" → vue, js), so the namespace goes before every part: the SQL of
 * `nodes.fts_tokens` replaces each of these characters by a space and the namespace, and a
 * query builds the same text here. A separator missing from the list only leaves that part
 * un-namespaced, on both sides alike: it still matches, it is just not private to the
 * collection's postings.
 */
import { quoteToken } from "./fts-query";

/** The characters migration 0200 puts the namespace after (a space first, then these). */
export const NAMESPACE_SEPARATORS: readonly string[] = [
  " ",
  ".",
  "'",
  ",",
  ":",
  ";",
  "_",
  '"',
  "-",
  "\u00b7",
  "\u2018",
  "\u2019",
  "\u2027",
  "\u05f3",
  "\u05f4",
];

/** Where SQL puts a collection's namespace into a template (`replace(template, char(1), ns)`). */
export const NAMESPACE_MARK = "\u0001";

/** The token as a namespaced row's FTS text holds it. */
export function namespaced(token: string, ns: string): string {
  let out = token;
  for (const s of NAMESPACE_SEPARATORS) out = out.replaceAll(s, ` ${ns}`);
  return ns + out;
}

/**
 * The quoted MATCH string of a token with NAMESPACE_MARK in place of the namespace: one
 * template serves every readable collection, filled in by SQL. Every separator, the quote
 * included, became a space, so the template needs no escaping beyond the quotes around it.
 */
export function namespaceTemplate(token: string): string {
  return quoteToken(namespaced(token, NAMESPACE_MARK));
}

const EXACT = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+$/u;

/**
 * True when FTS5 indexes the token as exactly this one term: a run of Han or kana holds no
 * separator, nothing to fold and nothing porter stems, so the number of rows holding the
 * application token is the number FTS5 would count (kb_fts_df answers for it).
 */
export function indexedVerbatim(token: string): boolean {
  return EXACT.test(token);
}
