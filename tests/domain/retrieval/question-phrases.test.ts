import { withoutQuestionPhrases } from "@src/domain/retrieval/question-phrases";
import { identifierCompounds, queryTokens } from "@src/domain/text/search-tokens";
import { describe, it } from "vitest";

describe("withoutQuestionPhrases", () => {
  it("cuts the phrase and the words that glue it, so no bigram runs across it", ({ expect }) => {
    const asked = withoutQuestionPhrases("markRaw 是做什么的？什么时候需要用它");
    const tokens = queryTokens(asked, 96);
    expect(tokens).toContain("markraw");
    for (const noise of ["是做", "做什", "什么", "么的", "时候", "需要", "要用", "用它"])
      expect(tokens).not.toContain(noise);
  });

  it("leaves a question without a question phrase as it is, bigrams across 的 included", ({ expect }) => {
    const q = "一次渲染上万行的列表，页面非常卡";
    expect(withoutQuestionPhrases(q)).toBe(q);
    expect(queryTokens(withoutQuestionPhrases(q), 96)).toContain("行的");
  });

  it("keeps the topic's own words next to a phrase and identifiers whole", ({ expect }) => {
    const asked = withoutQuestionPhrases("v-if 和 v-show 有什么区别？自定义指令有哪些钩子函数？");
    expect(identifierCompounds(asked)).toEqual(expect.arrayContaining(["v-if", "v-show"]));
    const tokens = queryTokens(asked, 96);
    for (const kept of ["自定", "指令", "钩子", "函数"]) expect(tokens).toContain(kept);
    for (const cut of ["有什", "区别", "令有", "有哪", "哪些", "些钩"]) expect(tokens).not.toContain(cut);
  });

  it("cuts a phrase the segmenter splits, and a closing 吗 with the word it glues", ({ expect }) => {
    const memo = queryTokens(withoutQuestionPhrases("v-memo 到底是干嘛用的？"), 96);
    expect(memo).toContain("memo");
    for (const noise of ["是干", "干嘛", "嘛用", "用的"]) expect(memo).not.toContain(noise);
    const both = queryTokens(withoutQuestionPhrases("v-for 和 v-if 能一起用吗？"), 96);
    expect(both).toContain("一起");
    expect(both).not.toContain("用吗");
    expect(queryTokens(withoutQuestionPhrases("SSR 激活不匹配怎么办？"), 96)).not.toContain("配怎");
  });

  it("keeps a follow-up's lines, and a line that is only a question phrase whole", ({ expect }) => {
    const asked = withoutQuestionPhrases("provide 和 inject 怎么用？\n为什么？");
    const lines = asked.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("inject");
    expect(lines[0]).not.toContain("怎么");
    expect(lines[1]).toBe("为什么？");
  });
});
