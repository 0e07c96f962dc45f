import type { ContextNode } from "@src/domain/retrieval/context-node";
import {
  fieldCoverage,
  fieldScores,
  fieldsOf,
  namesOwnHeading,
  occurrences,
  tokenCounts,
  turnWeightedTerms,
} from "@src/domain/retrieval/field-score";
import { isQuestionWord } from "@src/domain/retrieval/question-words";
import { evidenceTokens } from "@src/domain/retrieval/stages/read-query";
import { identifierWeights } from "@src/domain/retrieval/stages/relevance-floor";
import { focusedQueryTokens } from "@src/domain/text/search-tokens";
import { describe, it } from "vitest";

const passage = (id: string, path: string[], rawText: string) =>
  ({ nodeId: id, title: path[0] ?? null, path, rawText }) as unknown as ContextNode;

/** Words as a focused query splits them. */
const focused = (t: string) => focusedQueryTokens(t, 32);

/** What `fieldScores` reads of these passages, their words split by `words`. */
const scored = (nodes: ContextNode[], words?: (t: string) => string[]) =>
  nodes.map((n) => ({ id: n.nodeId, fields: fieldsOf(n, words) }));

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
    const scores = fieldScores(terms, scored([heading, body, other]));
    expect(scores.get("h")).toBeGreaterThan(scores.get("b") ?? 0);
    expect(scores.get("b")).toBeGreaterThan(scores.get("o") ?? 0);
    expect(scores.get("o")).toBe(0);
    // Without the heading boost the body that repeats the words wins: the field decides.
    const flat = fieldScores(terms, scored([heading, body]), { heading: 0, k1: 1.2, b: 0.75 });
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

  it("ranks a child section whose own heading names nothing asked below the section it inherits the match from", ({
    expect,
  }) => {
    const terms = new Map([
      ["transitiongroup", 4],
      ["移动", 4],
      ["动画", 3.5],
    ]);
    // Same body: only the heading paths differ, and the child's repeats the parent's.
    const body = "元素移动时可以使用过渡，动画会平滑进行。";
    const parent = passage("p", ["TransitionGroup", "移动动画"], body);
    const child = passage("c", ["TransitionGroup", "移动动画", "自定义过渡组 class"], body);
    const nodes = scored([parent, child], focused);
    const scores = fieldScores(terms, nodes);
    expect(scores.get("p")).toBeGreaterThan(scores.get("c") ?? 0);
    // Without the discount both paths hold every term: the heading field cannot tell them apart.
    const flat = fieldScores(terms, nodes, { heading: 3, k1: 1.2, b: 0.75, own: 0 });
    expect(flat.get("p")).toBe(flat.get("c"));
  });

  it("gives a follow-up's own-heading match on a word only the earlier turn said half its weight", ({
    expect,
  }) => {
    // "具名插槽怎么写？" then "那插槽的名字能用变量动态决定吗？": 具名 was said only before.
    const terms = new Map([
      ["具名", 2],
      ["插槽", 1],
      ["动态", 1.2],
      ["名字", 1],
    ]);
    const body = "插槽的名字可以写在 v-slot 上。";
    const named = passage("named", ["插槽 Slots", "具名插槽"], body);
    const dynamic = passage("dynamic", ["插槽 Slots", "动态插槽名"], body);
    const nodes = scored([named, dynamic], focused);
    const options = { heading: 3, k1: 1.2, b: 0.75, own: 0.5 };
    // Read as one question, the earlier turn's rare word wins the heading field.
    const alone = fieldScores(terms, nodes, options);
    expect(alone.get("named")).toBeGreaterThan(alone.get("dynamic") ?? 0);
    // Read as a follow-up, the section that answered the earlier turn no longer outranks the one asked about.
    const asked = new Set(["插槽", "动态", "名字"]);
    const followUp = fieldScores(terms, nodes, { ...options, asked });
    expect(followUp.get("dynamic")).toBeGreaterThan(followUp.get("named") ?? 0);
    expect(followUp.get("dynamic")).toBe(alone.get("dynamic"));
  });

  it("counts an own heading as named when any of its words is a query term, badges and glosses aside", ({
    expect,
  }) => {
    const terms = new Map([
      ["激活", 3.8],
      ["匹配", 3.7],
    ]);
    const own = (path: string[]) => fieldsOf(passage("x", path, ""), focused).own ?? [];
    // A longer heading that adds a word still names what is asked: a presence test, not a share.
    expect(
      namesOwnHeading(terms, own(["SSR", "激活不匹配", '消除激活不匹配 <sup class="vt-badge" />'])),
    ).toBe(true);
    expect(own(["SSR", '消除激活不匹配 <sup class="vt-badge" />'])).not.toContain("badge");
    expect(own(["依赖注入", "Inject (注入)"])).toEqual(["inject"]);
    expect(namesOwnHeading(terms, own(["SSR", "跨请求状态污染"]))).toBe(false);
    // A document's lead text has no heading of its own: nothing to discount.
    expect(namesOwnHeading(terms, own([]))).toBe(true);
  });
});
