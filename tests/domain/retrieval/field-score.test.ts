import { describe, it } from "vitest";
import type { ContextNode } from "../../../src/domain/retrieval/context-node";
import {
  fieldCoverage,
  fieldScores,
  fieldsOf,
  occurrences,
  tokenCounts,
  turnWeightedTerms,
} from "../../../src/domain/retrieval/field-score";
import { isQuestionWord } from "../../../src/domain/retrieval/question-words";
import { evidenceTokens, identifierWeights } from "../../../src/domain/retrieval/retrieve";

const passage = (id: string, path: string[], rawText: string) =>
  ({ nodeId: id, title: path[0] ?? null, path, rawText }) as unknown as ContextNode;

describe("fielded scoring", () => {
  it("drops question and function words (stopwords-zh) but keeps the words a topic is made of", ({
    expect,
  }) => {
    for (const w of ["怎么", "什么", "可以", "一个", "它"]) expect(isQuestionWord(w)).toBe(true);
    for (const w of ["计算", "缓存", "组件", "属性"]) expect(isQuestionWord(w)).toBe(false);
  });

  it("weighs the asking turn fully and each earlier one half as much", ({ expect }) => {
    const w = turnWeightedTerms(["侦听器 回调", "缓存 回调"], (t) => t.split(" "));
    expect(w.get("缓存")).toBe(1);
    expect(w.get("回调")).toBe(1); // said again now: its largest weight counts
    expect(w.get("侦听器")).toBe(0.5);
  });

  it("finds a long CJK word through its bigrams", ({ expect }) => {
    expect(occurrences(tokenCounts("计算属性会被缓存"), "计算属性")).toBeGreaterThan(0);
    expect(occurrences(tokenCounts("属性计算"), "计算属性")).toBe(0);
  });

  it("ranks the section whose heading names the words above one whose body only mentions them", ({
    expect,
  }) => {
    const terms = new Map([
      ["缓存", 2],
      ["方法", 1],
    ]);
    const heading = passage("h", ["计算属性", "计算属性缓存 vs 方法"], "依赖不变时返回上次的结果。");
    const body = passage("b", ["列表渲染"], "列表的方法可以缓存，方法很多，方法也会缓存。");
    const other = passage("o", ["侦听器"], "回调在状态变化时执行。");
    const scores = fieldScores(
      terms,
      [heading, body, other].map((n) => ({ id: n.nodeId, fields: fieldsOf(n) })),
    );
    expect(scores.get("h")).toBeGreaterThan(scores.get("b") ?? 0);
    expect(scores.get("b")).toBeGreaterThan(scores.get("o") ?? 0);
    expect(scores.get("o")).toBe(0);
    // Without the heading boost the body that repeats the words wins: the field decides.
    const flat = fieldScores(
      terms,
      [heading, body].map((n) => ({ id: n.nodeId, fields: fieldsOf(n) })),
      { heading: 0, k1: 1.2, b: 0.75 },
    );
    expect(flat.get("b")).toBeGreaterThan(flat.get("h") ?? 0);
  });

  it("measures coverage as the share of the query's weight held in either field", ({ expect }) => {
    const terms = new Map([
      ["缓存", 3],
      ["pinia", 1],
    ]);
    expect(fieldCoverage(terms, fieldsOf(passage("h", ["缓存"], "无关。")))).toBeCloseTo(0.75, 9);
    expect(fieldCoverage(terms, fieldsOf(passage("x", ["侦听器"], "无关。")))).toBe(0);
  });

  it("judges the floor by the identifiers of the asking turn only", ({ expect }) => {
    const w = new Map([
      ["pinia", 2],
      ["storetorefs", 5],
      ["缓存", 1],
    ]);
    expect([...identifierWeights("Pinia 的 storeToRefs 缓存怎么用？", w).keys()]).toEqual([
      "pinia",
      "storetorefs",
    ]);
    expect(evidenceTokens("怎么用 storeToRefs？")).toEqual(["storetorefs"]);
  });
});
