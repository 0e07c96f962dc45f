/**
 * Wallet seed phrases (BIP39): 12, 15, 18, 21 or 24 words of the BIP39 English word list, as
 * people paste them — separated by spaces, commas or new lines, numbered or not ("1. abandon
 * 2. ability …"). Whoever holds the words holds the wallet. The word list is the one of the
 * audited `@scure/bip39` package. A run of twelve or more list words in a row is masked whole:
 * ordinary English never strings twelve of them together without another word between.
 */
import { wordlist } from "@scure/bip39/wordlists/english.js";

export type SeedPhraseMatch = { readonly start: number; readonly end: number };

const WORDS = new Set(wordlist);
const MIN_WORDS = 12;
const TOKEN = /[A-Za-z]+/g;
/** What may stand between two words of a phrase: separators and the numbers of a numbered list. */
const BETWEEN = /^[\s,，、;；.。:：|/\-–—()（）\d]*$/u;

export function findSeedPhrases(text: string): SeedPhraseMatch[] {
  const runs: { start: number; end: number; n: number }[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const end = m.index + m[0].length;
    const last = runs.at(-1);
    if (!WORDS.has(m[0].toLowerCase())) runs.push({ start: end, end, n: 0 });
    else if (last && last.n > 0 && BETWEEN.test(text.slice(last.end, m.index))) {
      last.end = end;
      last.n++;
    } else runs.push({ start: m.index, end, n: 1 });
  }
  return runs.filter((r) => r.n >= MIN_WORDS).map(({ start, end }) => ({ start, end }));
}
