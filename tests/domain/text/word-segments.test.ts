import {
  compoundOccurrences,
  focusedQueryTokens,
  normalizeForSearch,
  queryTokens,
  searchTokens,
} from "@src/domain/text/search-tokens";
import { wordSegmentCacheSize, wordSegments, wordSegmentsUncached } from "@src/domain/text/word-segments";
import { describe, it } from "vitest";

/** Texts of every kind the tokenizers see: chat, mixed scripts, identifiers, long, odd. */
const TEXTS = [
  "上次说的周末聚餐怎么样了？还有搬家的事",
  "明天下午三点开会，记得带上电脑和项目文档",
  "I think the v-model binding on keep-alive is broken again",
  "Ｒｕｎning FAST，ｖ－ｉｆ 和 v-for 的区别",
  "こんにちは、東京タワーへ行きます。한국어 문장도 있어요",
  "😀🎉 emoji only 😀",
  "",
  "   ",
  "a".repeat(60),
  `${"长文本测试，".repeat(900)}结尾`, // longer than the cached limit
  "https://example.com/path?q=1&token=abc#frag 看这个链接",
];

describe("wordSegments", () => {
  it("returns exactly what the segmenter returns, cached or not, first call or repeated", ({ expect }) => {
    for (let round = 0; round < 3; round++) {
      for (const text of TEXTS) {
        const normalized = normalizeForSearch(text);
        expect([...wordSegments(normalized)]).toEqual(wordSegmentsUncached(normalized));
      }
    }
  });

  it("hands out a frozen array, so no caller can change what the next one gets", ({ expect }) => {
    const words = wordSegments("明天下午开会");
    expect(Object.isFrozen(words)).toBe(true);
    expect(() => (words as string[]).push("x")).toThrow();
    expect([...wordSegments("明天下午开会")]).toEqual(wordSegmentsUncached("明天下午开会"));
  });

  it("keeps its text within the bound however many texts pass", ({ expect }) => {
    for (let i = 0; i < 5_000; i++) wordSegments(`第${i}条消息，内容各不相同 ${i.toString(36)}`);
    for (let i = 0; i < 100; i++) wordSegments(`${"重复的长消息".repeat(600)}${i}`);
    const { chars } = wordSegmentCacheSize();
    expect(chars).toBeLessThanOrEqual(200_000);
    expect(chars).toBeGreaterThan(0);
  });

  it("leaves every tokenizer's output as it was, before and after the cache is warm", ({ expect }) => {
    const cold = TEXTS.map((t) => [searchTokens(t), queryTokens(t, 96), focusedQueryTokens(t)]);
    // The callers' arrays are their own: changing one does not reach the cache.
    for (const [tokens] of cold) tokens?.push("changed");
    const warm = TEXTS.map((t) => [searchTokens(t), queryTokens(t, 96), focusedQueryTokens(t)]);
    const expected = TEXTS.map((t) => {
      const words = wordSegmentsUncached(normalizeForSearch(t));
      return words.filter((w) => w.length <= 48);
    });
    warm.forEach(([tokens], i) => {
      expect(tokens?.slice(0, expected[i]?.length)).toEqual(expected[i]);
    });
    expect(warm.map(([, q, f]) => [q, f])).toEqual(cold.map(([, q, f]) => [q, f]));
  });
});

describe("compoundOccurrences", () => {
  it("finds compounds whose hyphen only appears after normalization (full-width ｖ－ｉｆ)", ({ expect }) => {
    expect(compoundOccurrences("ｖ－ｉｆ 和 v-for")).toEqual(["v-if", "v-for"]);
  });

  it("finds nothing in text without a hyphen", ({ expect }) => {
    expect(compoundOccurrences("上次说的周末聚餐怎么样了 keep alive")).toEqual([]);
  });
});
