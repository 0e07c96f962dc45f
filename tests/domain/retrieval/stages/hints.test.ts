import type { IndexFilter } from "@src/domain/retrieval/ports";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import { hintBoosts, hintStrength, namedIn, namesSource } from "@src/domain/retrieval/stages/hints";
import { describe, it } from "vitest";
import { FakeKeywords, FakeStore, filter, node } from "../../../fakes/retrieval-ports";

describe("hints", () => {
  it("namesSource sees a heading named in the question, ignoring disambiguation", ({ expect }) => {
    expect(
      namesSource(
        "逍遥法外的票房是多少",
        node("x", "collection:a", "", { title: "逍遥法外（美国2002年电影）" }),
      ),
    ).toBe(true);
    expect(namesSource("票房是多少", node("x", "collection:a", "", { title: "逍遥法外" }))).toBe(false);
  });

  it("namedIn measures the share of the turn a named title covers", ({ expect }) => {
    const generic = namedIn("组件之间传一个回调函数的写法", node("x", "collection:a", "", { title: "组件" }));
    const whole = namedIn("响应式基础？", node("y", "collection:a", "", { path: ["响应式基础"] }));
    expect(generic.names).toEqual(["组件"]);
    expect(generic.share).toBeLessThan(0.2);
    expect(whole).toEqual({ share: 1, names: ["响应式基础"] });
    expect(namedIn("票房是多少", node("z", "collection:a", "", { title: "逍遥法外" }))).toEqual({
      share: 0,
      names: [],
    });
  });

  it("hintStrength: sharpness 0 is a plain hint list; above 0 earlier turns and generic names weigh less", ({
    expect,
  }) => {
    const spec = (name: string) => (name === "组件" ? 0.1 : 0.9);
    const latest = [
      { share: 0, names: [] },
      { share: 0.1, names: ["组件"] },
    ];
    const earlier = [
      { share: 0.1, names: ["组件"] },
      { share: 0, names: [] },
    ];
    const rare = [
      { share: 0, names: [] },
      { share: 0.1, names: ["defineModel"] },
    ];
    expect(hintStrength(latest, spec, 0)).toBe(1);
    expect(hintStrength(earlier, spec, 0)).toBe(1);
    expect(hintStrength(latest, spec, 3)).toBeCloseTo(0.001, 6);
    expect(hintStrength(earlier, spec, 3)).toBeCloseTo(0.000125, 7);
    expect(hintStrength(rare, spec, 3)).toBeCloseTo(0.729, 6);
    expect(hintStrength([{ share: 0, names: [] }], spec, 3)).toBe(0);
  });

  it("a generic heading named in a long question outranks the best keyword hit only without sharpness", async ({
    expect,
  }) => {
    const nodes = [
      node("best", "collection:a", "回调 函数 传递 写法"),
      node("generic", "collection:a", "组件 介绍", { title: "组件" }),
      ...Array.from({ length: 8 }, (_, i) => node(`g${i}`, "collection:a", `组件 第${i}节`)),
    ];
    class CountingKeywords extends FakeKeywords {
      async frequencies(q: IndexFilter & { tokens: readonly string[] }) {
        const df = new Map(
          q.tokens.map((t) => [t, this.nodes.filter((n) => n.retrievalText.includes(t)).length]),
        );
        return { rows: this.nodes.length, df };
      }
    }
    const deps = { keywords: new CountingKeywords(nodes), store: new FakeStore(nodes) };
    const ask = (hintSharpness: number) =>
      retrieve(deps, {
        query: "组件 回调 函数 传递 写法 是怎样的",
        filter: filter(["collection:a"]),
        options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
          limit: 3,
          fuse: { hints: { sharpness: hintSharpness } },
        }),
      });
    expect((await ask(0)).items[0]?.node.nodeId).toBe("generic");
    expect((await ask(3)).items[0]?.node.nodeId).toBe("best");
  });

  it("boosts the named candidates in ranking order, a plain hint list at sharpness 0", async ({ expect }) => {
    const nodes = [
      node("x", "collection:a", "甲", { title: "响应式基础" }),
      node("y", "collection:a", "乙", { title: "组件" }),
      node("z", "collection:a", "丙", { title: "插槽" }),
    ];
    const visible = new Map(nodes.map((n) => [n.nodeId, n]));
    const ranking = ["z", "y", "x"].map((nodeId, i) => ({ nodeId, score: 1 / (61 + i) }));
    const boosts = await hintBoosts(
      new FakeKeywords(nodes),
      filter(["collection:a"]),
      "组件和响应式基础",
      ranking,
      visible,
      DEFAULT_RETRIEVAL_OPTIONS.fuse,
    );
    // z is not named; y is named first in the ranking, then x.
    expect([...boosts]).toEqual([
      ["y", 1 / 61],
      ["x", 1 / 62],
    ]);
  });
});
