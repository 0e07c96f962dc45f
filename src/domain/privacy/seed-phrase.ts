/**
 * Wallet seed phrases (BIP39): 12, 15, 18, 21 or 24 words of the BIP39 English word list, as
 * people paste them — separated by spaces, commas or new lines, numbered or not ("1. abandon
 * 2. ability …"). Whoever holds the words holds the wallet. The word list is the one of the
 * audited `@scure/bip39` package. A run of twelve or more list words in a row is masked whole:
 * ordinary English never strings twelve of them together without another word between.
 *
 * Chinese phrases are single characters of the BIP39 Chinese lists (simplified and traditional),
 * spaced: twelve or more of them in a row, or twelve or more spaced characters of any kind right
 * after a word that names a phrase ("助记词：凉 旅 骨 …"), since a phrase copied by hand may hold a
 * character misread (decision 0580).
 */
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { wordlist as simplified } from "@scure/bip39/wordlists/simplified-chinese.js";
import { wordlist as traditional } from "@scure/bip39/wordlists/traditional-chinese.js";

export type SeedPhraseMatch = { readonly start: number; readonly end: number };

const WORDS = new Set(wordlist);
const MIN_WORDS = 12;
const TOKEN = /[A-Za-z]+/g;
/** What may stand between two words of a phrase: separators and the numbers of a numbered list. */
const BETWEEN = /^[\s,，、;；.。:：|/\-–—()（）\d]*$/u;

const HAN_WORDS = new Set([...simplified, ...traditional]);
/** Twelve to twenty-four single characters, each set off by spaces or commas. */
const HAN_RUN = /(?<!\p{Script=Han})\p{Script=Han}(?:[ \t,，、]+\p{Script=Han}(?!\p{Script=Han})){11,23}/gu;
const PHRASE_WORD = /(?:助记词|助记符|恢复短语|mnemonic|seed\s*phrase|recovery\s*phrase)[^\n]{0,20}$/iu;

/** Spaced Chinese phrases: every character a BIP39 word, or named as a phrase right before. */
function hanPhrases(text: string): SeedPhraseMatch[] {
  const out: SeedPhraseMatch[] = [];
  for (const m of text.matchAll(HAN_RUN)) {
    const chars = m[0].match(/\p{Script=Han}/gu) ?? [];
    const named = PHRASE_WORD.test(text.slice(Math.max(0, m.index - 40), m.index));
    if (named || chars.every((c) => HAN_WORDS.has(c)))
      out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}

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
  return [
    ...runs.filter((r) => r.n >= MIN_WORDS).map(({ start, end }) => ({ start, end })),
    ...hanPhrases(text),
  ];
}
