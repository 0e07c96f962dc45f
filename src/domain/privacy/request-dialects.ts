/**
 * The request words of Cantonese, Shanghainese and Taiwanese Hokkien chat, read as their Mandarin
 * (docs/decisions/0600-privacy-requests-as-people-type-them.md): 唔好同外面啲人讲 → 不要同外面的人讲,
 * 母汤讲出去 → 不要讲出去, 麦共别人讲 → 别跟别人讲. The phrase rules
 * (privacy-request-rules.ts) are written once, in Mandarin; this folds the few function words
 * those speakers write differently, so every rule reads them too. Only words that cannot be
 * ordinary Mandarin are folded (not 同, which is also 同学, nor 系), and each keeps its place in
 * the original text (replaceSpans), so a finding still maps back to what was written.
 */
import { type DetectionText, replaceSpans } from "../text/detection-text";

/** Dialect word → Mandarin, longest first where one contains another. */
const FOLDS: readonly (readonly [RegExp, string])[] = [
  // Cantonese: 唔好 (don't), 唔使 (no need), 啲 (of / some), 俾 (to), 咗, 嘅, 嚟, 㗎, 冇.
  [/唔好/gu, "不要"],
  [/唔使|唔驶|唔洗/gu, "不用"],
  [/唔/gu, "不"],
  [/啲/gu, "的"],
  [/俾/gu, "给"],
  [/咗/gu, "了"],
  [/嘅/gu, "的"],
  [/嚟/gu, "来"],
  [/㗎/gu, "的"],
  [/冇/gu, "没"],
  [/你哋/gu, "你们"],
  [/我哋/gu, "我们"],
  [/佢哋话/gu, "他们说"],
  [/佢话/gu, "他说"],
  // Shanghainese: 覅 (don't), 侬 (you).
  [/覅/gu, "别"],
  [/侬/gu, "你"],
  // Taiwanese Hokkien as typed in Mandarin characters: 母汤 / 毋通 (don't), 麦共 / 嘜共 (don't tell).
  [/母汤|毋通|袂使/gu, "不要"],
  [/(?:麦|嘜)(?=共|跟|讲|说|告诉)/gu, "别"],
  [/(?<=别)共/gu, "跟"],
];

/** `t` with the dialect request words read as Mandarin. */
export function foldRequestDialects(t: DetectionText): DetectionText {
  let out = t;
  for (const [pattern, mandarin] of FOLDS) {
    const found = [...out.text.matchAll(pattern)];
    out = replaceSpans(
      out,
      found.map((m) => ({ span: { start: m.index, end: m.index + m[0].length }, piece: mandarin })),
    );
  }
  return out;
}
