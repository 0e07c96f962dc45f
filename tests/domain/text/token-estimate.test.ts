import { CHARS_PER_TOKEN_AT_MOST, estimateTokens, wideChars } from "@src/domain/text/token-estimate";
import { describe, it } from "vitest";

/** What the search's SQL computes from a family's rows: characters as SQLite counts them, wide ones stored. */
const atLeast = (texts: readonly string[]) => {
  const wide = texts.reduce((n, t) => n + wideChars(t), 0);
  const chars = texts.reduce((n, t) => n + [...t].length, 0);
  return wide + (chars - wide) / CHARS_PER_TOKEN_AT_MOST;
};

const ALPHABET = ["稻", "妻", "か", "한", "，", "。", "“", "a", "Z", " ", "\n", "é", "😀", "7", "：", "豈"];

function randomText(seed: number, length: number): string {
  let x = seed;
  let out = "";
  for (let i = 0; i < length; i++) {
    x = (x * 48271) % 2147483647;
    out += ALPHABET[x % ALPHABET.length];
  }
  return out;
}

describe("wideChars", () => {
  it("counts the characters the estimate takes at a token each", ({ expect }) => {
    expect(wideChars("")).toBe(0);
    expect(wideChars("plain text")).toBe(0);
    expect(wideChars("稻妻かな한글豈")).toBe(7);
    // Full-width punctuation and emoji are not wide: they count a quarter token each.
    expect(wideChars("，。“😀")).toBe(0);
    expect(estimateTokens("稻妻 city")).toBe(2 + Math.ceil(5 / CHARS_PER_TOKEN_AT_MOST));
  });

  it("bounds a family's estimate from below, however its children are cut and joined", ({ expect }) => {
    let checked = 0;
    for (let seed = 1; seed < 300; seed++) {
      const children = Array.from({ length: 1 + (seed % 5) }, (_, i) =>
        randomText(seed * 31 + i, (seed * 7 + i) % 90),
      );
      const estimate = estimateTokens(children.join("\n"));
      expect(atLeast(children)).toBeLessThanOrEqual(estimate);
      // Close to it: off by the newlines, the rounding and the second half of each character
      // outside the BMP (one code point in SQLite, two UTF-16 units in the estimate).
      const astral = children.join("").length - [...children.join("")].length;
      expect(estimate - atLeast(children)).toBeLessThanOrEqual(
        children.length + 1 + astral / CHARS_PER_TOKEN_AT_MOST,
      );
      checked++;
    }
    expect(checked).toBe(299);
  });
});
