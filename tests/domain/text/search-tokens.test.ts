import { chatIndexText, chatMatchExpression, chatTokenPrefix } from "@src/domain/text/chat-search-tokens";
import { matchExpression, matchExpressionFor, quoteToken } from "@src/domain/text/fts-query";
import {
  compoundOccurrences,
  focusedQueryTokens,
  identifierCompounds,
  indexText,
  queryTokens,
  searchTokens,
} from "@src/domain/text/search-tokens";
import { describe, it } from "vitest";

describe("searchTokens", () => {
  it("yields ICU words and CJK bigrams for Chinese", ({ expect }) => {
    const tokens = searchTokens("明天下午开会");
    expect(tokens).toEqual(expect.arrayContaining(["明天", "下午", "开会", "天下", "午开"]));
  });

  it("NFKC-normalizes and lowercases Latin words", ({ expect }) => {
    expect(searchTokens("Ｒｕｎning FAST")).toEqual(["running", "fast"]);
  });

  it("keeps repeats for term frequency and drops punctuation", ({ expect }) => {
    expect(searchTokens("猫，猫！")).toEqual(["猫", "猫"]);
  });

  it("indexText joins tokens of several fields with spaces", ({ expect }) => {
    expect(indexText("Vue", null, "明天")).toBe("vue 明天 明天");
  });

  it("queryTokens are distinct, without stopwords and capped", ({ expect }) => {
    expect(queryTokens("我的猫的猫")).not.toContain("的");
    expect(new Set(queryTokens("猫猫猫猫")).size).toBe(queryTokens("猫猫猫猫").length);
    expect(queryTokens("一二三四五六七八九十".repeat(10), 5)).toHaveLength(5);
  });
});

describe("focusedQueryTokens", () => {
  it("keeps known words, joins unknown single characters into bigrams and drops stopwords", ({ expect }) => {
    expect(focusedQueryTokens("第1451条消息：明天下午三点开会")).toEqual([
      "第",
      "1451",
      "条",
      "消息",
      "明天",
      "下午",
      "三点",
      "开会",
    ]);
    expect(focusedQueryTokens("我喜欢吃火锅和寿司")).toEqual(["喜欢", "吃", "火锅", "寿司"]);
    const tokens = focusedQueryTokens("明天下午三点开会");
    expect(tokens).toContain("三点");
    expect(tokens).not.toContain("天下");
    expect(tokens).not.toContain("的");
  });

  it.for(["明天下午三点开会", "我喜欢吃火锅和寿司", "Vue 组件通信 props emit", "小明说周五团建"])(
    "produces only tokens that indexing also produces, for %s",
    (text, { expect }) => {
      const indexed = new Set(searchTokens(text));
      for (const token of focusedQueryTokens(text)) expect(indexed.has(token)).toBe(true);
    },
  );
});

describe("FTS5 match expressions", () => {
  it("quotes every token and doubles embedded quotes", ({ expect }) => {
    expect(quoteToken('a"b')).toBe('"a""b"');
    expect(matchExpression(["开会", "near"])).toBe('"开会" OR "near"');
  });

  it.for(['"', "*", "NEAR(a b)", "-x", "col:val", "^start", "(a OR b)", "a AND NOT b"])(
    "turns FTS5 syntax in %j into quoted tokens",
    (text, { expect }) => {
      const expr = matchExpressionFor(text);
      if (expr === null) return expect(expr).toBeNull();
      for (const part of expr.split(" OR ")) expect(part).toMatch(/^"[^"]*(""[^"]*)*"$/);
    },
  );

  it("returns null when nothing searchable remains", ({ expect }) => {
    expect(matchExpressionFor("？！…")).toBeNull();
    expect(matchExpression([])).toBeNull();
  });
});

describe("chat token namespaces", () => {
  it("prefixes every token with its chat's namespace", ({ expect }) => {
    const a = chatIndexText("qq:group:A", "明天开会");
    const prefix = chatTokenPrefix("qq:group:A");
    expect(prefix).toMatch(/^k[0-9a-z]+$/);
    expect(a.split(" ").every((t) => t.startsWith(prefix))).toBe(true);
    expect(chatTokenPrefix("qq:group:B")).not.toBe(prefix);
  });

  it("builds a query in the same namespace, quoted", ({ expect }) => {
    const prefix = chatTokenPrefix("qq:group:A");
    expect(chatMatchExpression("qq:group:A", "开会")).toBe(`"${prefix}开会"`);
    expect(chatMatchExpression("qq:group:A", "！？")).toBeNull();
  });
});

describe("hyphenated identifiers", () => {
  it("are kept whole in queries, where their parts alone are stopwords or one letter", ({ expect }) => {
    // The segmenter splits "v-if" into "v" and "if"; "if" and "for" are query stopwords.
    expect(searchTokens("v-for 和 v-if")).toEqual(expect.arrayContaining(["v", "for", "if"]));
    const q = queryTokens("v-for 和 v-if 能一起用吗？");
    expect(q.slice(0, 2)).toEqual(["v-for", "v-if"]);
    expect(q).not.toContain("if");
    // Compounds of ordinary words are found by their parts: no phrase for them.
    expect(queryTokens("pre-season training")).toEqual(["pre", "season", "training"]);
    // Quoted, the compound is a phrase of its parts, which the index already holds in order.
    expect(matchExpression(q.slice(0, 1))).toBe('"v-for"');
  });

  it("are Latin words joined by hyphens only: no CJK, no bare numbers, NFKC and lowercase", ({ expect }) => {
    expect(identifierCompounds("用 V-Model、keep-alive 和 el-table，2024-05-01，中-文")).toEqual([
      "v-model",
      "keep-alive",
      "el-table",
    ]);
    expect(compoundOccurrences("v-if 然后 v-if，再 v-else-if")).toEqual(["v-if", "v-if", "v-else-if"]);
    expect(identifierCompounds("没有连字符")).toEqual([]);
  });
});
