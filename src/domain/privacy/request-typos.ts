/**
 * Typos in privacy requests, fixed before the phrase rules read them (docs/memory.md#sensitivity).
 *
 * Chinese is typed through pinyin input methods, so a slip picks a character of the same sound:
 * 别告苏别人, 不要外穿, 这个报密哈, 千万别说出趣. A window of the text whose characters sound like a
 * word of the small lexicon below (any reading of each character, from pinyin-pro's dictionary,
 * with the initials and finals people from the south merge: zh/z, ch/c, sh/s, n/l, in/ing,
 * en/eng) is read as that word. English slips are one edit (Damerau–Levenshtein, so a swapped
 * pair counts once) from a word of the English lexicon: anyon, secert, betwen, privat.
 * Only the words a request is made of are corrected, so ordinary text reads as written.
 */
import levenshtein from "damerau-levenshtein";
import { pinyin } from "pinyin-pro";
import { type DetectionText, replaceSpans } from "../text/detection-text";

/** Words of privacy requests, with readings people's slang adds (人 → 银). */
const CHINESE_WORDS: readonly (readonly [string, ...string[]])[] = [
  ["告诉"],
  // 外专, 外转: zh and ch are one key apart on a pinyin keyboard
  ["外传", "wai zuan"],
  ["保密"],
  ["保个密"],
  ["秘密"],
  ["别人", "bie yin"],
  ["说出去"],
  ["传出去"],
  ["声张"],
  ["透露"],
  ["宣扬"],
  ["保守"],
];

const ENGLISH_WORDS = [
  "anyone",
  "anybody",
  "nobody",
  "someone",
  "secret",
  "between",
  "private",
  "confidential",
  "yourself",
  "mention",
  "repeat",
  "spread",
  "promise",
];

/** A syllable with the distinctions many speakers do not make merged. */
function fuzzy(syllable: string): string {
  return syllable
    .replace(/^([zcs])h/, "$1")
    .replace(/^l/, "n")
    .replace(/ing$/, "in")
    .replace(/eng$/, "en");
}

const readingCache = new Map<string, ReadonlySet<string>>();

/** Every reading of one Han character, fuzzy; empty for anything else. */
function readings(ch: string): ReadonlySet<string> {
  let out = readingCache.get(ch);
  if (!out) {
    const all = /^\p{Script=Han}$/u.test(ch)
      ? pinyin(ch, { toneType: "none", multiple: true, type: "array" })
      : [];
    out = new Set(all.map(fuzzy));
    readingCache.set(ch, out);
  }
  return out;
}

type Word = { readonly word: string; readonly sounds: readonly (readonly string[])[] };

const LEXICON: readonly Word[] = CHINESE_WORDS.map(([word, ...extra]) => ({
  word,
  sounds: [[...word].map((ch) => [...readings(ch)][0] ?? ""), ...extra.map((s) => s.split(" ").map(fuzzy))],
}));

function soundsLike(chars: readonly string[], sound: readonly string[]): boolean {
  return chars.every((ch, i) => readings(ch).has(sound[i] ?? ""));
}

/** Han windows that sound like a lexicon word, rewritten as that word (same length). */
function fixChinese(t: DetectionText): DetectionText {
  const chars = [...t.text];
  if (chars.length !== t.text.length) return t; // astral characters: offsets would shift
  for (const { word, sounds } of LEXICON) {
    for (let i = 0; i + word.length <= chars.length; i++) {
      const window = chars.slice(i, i + word.length);
      if (window.join("") === word || !window.every((ch) => /\p{Script=Han}/u.test(ch))) continue;
      // Same length: the characters are overwritten in place and joined once, at the end.
      if (sounds.some((s) => soundsLike(window, s))) chars.splice(i, word.length, ...word);
    }
  }
  const text = chars.join("");
  return text === t.text ? t : { ...t, text };
}

/** English words one edit from a lexicon word, rewritten as that word. */
function fixEnglish(t: DetectionText): DetectionText {
  const fixes: { span: { start: number; end: number }; piece: string }[] = [];
  for (const m of t.text.matchAll(/[a-z]{5,}/gi)) {
    const token = m[0].toLowerCase();
    if (ENGLISH_WORDS.includes(token)) continue;
    const fix = ENGLISH_WORDS.find(
      (w) => Math.abs(w.length - token.length) <= 1 && levenshtein(token, w).steps <= 1,
    );
    if (fix) fixes.push({ span: { start: m.index, end: m.index + m[0].length }, piece: fix });
  }
  return replaceSpans(t, fixes);
}

/** `t` with the typos of request words fixed. */
export function fixRequestTypos(t: DetectionText): DetectionText {
  return fixEnglish(fixChinese(t));
}
