import type { KeywordIndex } from "@src/domain/retrieval/ports";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import { idfWeights } from "@src/domain/retrieval/stages/read-query";
import { FLOOR_NAME_SHARE, floorNames, weightedCoverage } from "@src/domain/retrieval/stages/relevance-floor";
import { describe, it } from "vitest";
import { CountingKeywords, FakeKeywords, FakeStore, filter, node } from "../../../fakes/retrieval-ports";

describe("relevance floor", () => {
  const nodes = [
    node("a", "collection:vue", "computed 计算属性 缓存 方法"),
    node("b", "collection:vue", "watch 侦听器 回调 方法"),
    node("c", "collection:vue", "slot 插槽 内容 方法"),
    node("d", "collection:vue", "props 组件 传递 方法"),
  ];
  const ask = (keywords: KeywordIndex, query: string, relevanceFloor: number) =>
    retrieve(
      { keywords, store: new FakeStore(nodes) },
      {
        query,
        filter: filter(["collection:vue"]),
        options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { coverage: { relevanceFloor } }),
      },
    );

  it("weighs a token the scopes never hold above every token they do hold", ({ expect }) => {
    const w = idfWeights(new Set(["方法", "缓存", "pinia"]), {
      rows: 4,
      df: new Map([
        ["方法", 4],
        ["缓存", 1],
      ]),
    });
    expect(w.get("pinia")).toBeGreaterThan(w.get("缓存") ?? 0);
    expect(w.get("缓存")).toBeGreaterThan(w.get("方法") ?? 0);
    expect(weightedCoverage(w, "缓存 方法")).toBeCloseTo(
      ((w.get("缓存") ?? 0) + (w.get("方法") ?? 0)) / [...w.values()].reduce((a, b) => a + b),
      9,
    );
  });

  it("returns nothing when the query's rare words are missing, the hit when they are present", ({
    expect,
  }) => {
    const keywords = new CountingKeywords(nodes);
    return Promise.all([
      ask(keywords, "storetorefs 方法", 0.5).then((r) => expect(r.items).toEqual([])),
      // The floor judges the question, not each hit: a question whose identifiers are held passes whole.
      ask(keywords, "computed 缓存 方法", 0.5).then((r) => expect(r.items[0]?.node.nodeId).toBe("a")),
      ask(keywords, "computed 缓存 方法", 0.5).then((r) => expect(r.items.length).toBe(4)),
      // Floor off: the least-bad passages come back.
      ask(keywords, "storetorefs 方法", 0).then((r) => expect(r.items.length).toBe(4)),
    ]);
  });

  it("judges a question about names, not a described problem that names something in passing", ({
    expect,
  }) => {
    const keywords = new CountingKeywords(nodes);
    return Promise.all([
      // The asker's own word no document holds, in a long description: still answered.
      ask(keywords, "ppt 侦听器 回调 缓存 插槽 内容 组件 传递", 0.5).then((r) =>
        expect(r.items.length).toBeGreaterThan(0),
      ),
      // The same word as most of the question: nothing.
      ask(keywords, "ppt 缓存", 0.5).then((r) => expect(r.items).toEqual([])),
    ]);
  });

  it("counts the names' share of the question's weight", ({ expect }) => {
    const weights = new Map([
      ["storetorefs", 3],
      ["方法", 1],
    ]);
    expect([...floorNames("storetorefs 方法", weights).keys()]).toEqual(["storetorefs"]);
    const passing = new Map([
      ["ppt", 1],
      ...["侦听器", "回调", "缓存", "插槽"].map((t): [string, number] => [t, 1]),
    ]);
    expect(1 / 5).toBeLessThan(FLOOR_NAME_SHARE);
    expect(floorNames("ppt 侦听器 回调 缓存 插槽", passing).size).toBe(0);
  });

  it("stays off for an index without frequencies", async ({ expect }) => {
    const r = await ask(new FakeKeywords(nodes), "storetorefs 方法", 0.9);
    expect(r.items.length).toBe(4);
  });
});
