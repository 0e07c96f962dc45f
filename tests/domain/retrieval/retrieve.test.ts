import { describe, it } from "vitest";
import { reciprocalRankFusion } from "../../../src/domain/retrieval/fuse";
import type { IndexFilter, KeywordIndex } from "../../../src/domain/retrieval/ports";
import { withoutQuestionPhrases } from "../../../src/domain/retrieval/question-phrases";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "../../../src/domain/retrieval/retrieval-options";
import { hintStrength, namedIn, namesSource, retrieve } from "../../../src/domain/retrieval/retrieve";
import {
  CannedVectors,
  embedder,
  FakeKeywords,
  FakeStore,
  filter,
  mixedScopeNodes,
  node,
} from "../../fakes/retrieval-ports";

describe("reciprocal rank fusion", () => {
  it("sums weight / (60 + rank) over lists", ({ expect }) => {
    const fused = reciprocalRankFusion([
      {
        name: "a",
        weight: 1,
        items: [
          { nodeId: "x", score: 9 },
          { nodeId: "y", score: 1 },
        ],
      },
      { name: "b", weight: 1, items: [{ nodeId: "y", score: 5 }] },
    ]);
    expect(fused.map((f) => f.nodeId)).toEqual(["y", "x"]);
    expect(fused[0]?.score).toBeCloseTo(1 / 62 + 1 / 61, 10);
    expect(fused[1]?.score).toBeCloseTo(1 / 61, 10);
  });
});

describe("retrieve", () => {
  const nodes = mixedScopeNodes();

  it("returns nothing for an empty scope set, whatever the indexes say", async ({ expect }) => {
    const result = await retrieve(
      {
        keywords: new FakeKeywords(nodes),
        store: new FakeStore(nodes),
        vectors: new CannedVectors(["a1"]),
        embedder,
      },
      { query: "风神", filter: filter([]), options: DEFAULT_RETRIEVAL_OPTIONS },
    );
    expect(result.items).toEqual([]);
  });

  it("skips vector search when the read model's fusion weight is 0", async ({ expect }) => {
    let queried = false;
    const vectors = new CannedVectors(["a2"]);
    vectors.query = async () => {
      queried = true;
      return [];
    };
    await retrieve(
      { keywords: new FakeKeywords(nodes), store: new FakeStore(nodes), vectors, embedder, vectorWeight: 0 },
      { query: "风神", filter: filter(["collection:a"]), options: DEFAULT_RETRIEVAL_OPTIONS },
    );
    expect(queried).toBe(false);
  });

  it("a set read whole answers whole even when the search sent beside its size fails, and embeds nothing", async ({
    expect,
  }) => {
    const nodes = [node("a", "collection:k", "阿贝多是炼金术士"), node("b", "collection:k", "可莉喜欢炸鱼")];
    const small = new (class extends FakeStore {
      override async size() {
        return { count: 2, tokens: 20 };
      }
    })(nodes);
    let embedded = 0;
    const failing: KeywordIndex = {
      search: async () => {
        throw new Error("D1 down");
      },
      frequencies: async () => {
        throw new Error("D1 down");
      },
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      const result = await retrieve(
        {
          keywords: failing,
          store: small,
          vectors: new CannedVectors(["a"]),
          embedder: {
            ...embedder,
            async embed(texts: readonly string[]) {
              embedded++;
              return embedder.embed(texts);
            },
          },
        },
        {
          query: "阿贝多",
          filter: filter(["collection:k"]),
          options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
            candidates: { readWholeTokens: 100 },
            coverage: { relevanceFloor: 0.5 },
            fields: { headingWeight: 3 },
          }),
        },
      );
      await new Promise((r) => setTimeout(r, 10));
      expect(result.strategy).toBe("whole");
      expect(result.items.map((i) => i.node.nodeId)).toEqual(["a", "b"]);
      expect(embedded).toBe(0);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("takes two-stage search's second list from an index that ranks both at once, else searches again", async ({
    expect,
  }) => {
    const searches: string[] = [];
    const fake = new FakeKeywords(nodes);
    const both = (answer: "both" | "none"): KeywordIndex => ({
      search: (q) => {
        searches.push(q.rootIds ? "inside" : q.nodeTypes.includes("passage") ? "flat" : "parents");
        return fake.search(q);
      },
      searchTwoStage: async (q) =>
        answer === "none"
          ? null
          : { hits: await fake.search(q), inside: [{ nodeId: "a2", score: 1, node: nodes[1] }] },
    });
    const ask = (keywords: KeywordIndex) =>
      retrieve(
        { keywords, store: new FakeStore(nodes) },
        {
          query: "风神",
          filter: filter(["collection:a"]),
          options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { candidates: { twoStageAbove: 3 } }),
        },
      );
    const inOne = await ask(both("both"));
    expect(inOne.strategy).toBe("two-stage");
    // The inside list's a2 does not hold the query word: only the second list brought it.
    expect(inOne.items.map((i) => i.node.nodeId)).toContain("a2");
    expect(searches).toEqual([]);
    const apart = await ask(both("none"));
    expect(apart.strategy).toBe("two-stage");
    expect(searches.sort()).toEqual(["flat", "parents"]);
  });

  it("keeps the index's combined statement flat when two-stage is off", async ({ expect }) => {
    const asked: number[] = [];
    const fake = new FakeKeywords(nodes);
    const keywords: KeywordIndex = {
      search: (q) => fake.search(q),
      searchTwoStage: async (q) => {
        asked.push(q.above);
        return { hits: await fake.search(q), inside: null };
      },
    };
    const result = await retrieve(
      { keywords, store: new FakeStore(nodes) },
      {
        query: "风神",
        filter: filter(["collection:a"]),
        options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { candidates: { twoStageAbove: 0 } }),
      },
    );
    // Still the one statement (the families come with it), sized so that it never goes two-stage.
    expect(asked).toEqual([Number.MAX_SAFE_INTEGER]);
    expect(result.strategy).not.toBe("two-stage");
    expect(result.items.map((i) => i.node.nodeId)).toContain("a1");
  });

  it("searches the index for what is asked about and embeds the question as asked", async ({ expect }) => {
    const keywords = new FakeKeywords(nodes);
    const searched: string[] = [];
    const search = keywords.search.bind(keywords);
    keywords.search = async (q) => {
      searched.push(q.text);
      return search(q);
    };
    const embedded: string[] = [];
    const question = "风神是做什么的？\n那璃月呢";
    await retrieve(
      {
        keywords,
        store: new FakeStore(nodes),
        vectors: new CannedVectors([]),
        embedder: {
          ...embedder,
          async embed(texts: readonly string[]) {
            embedded.push(...texts);
            return embedder.embed(texts);
          },
        },
        vectorWeight: 1,
      },
      { query: question, filter: filter(["collection:a"]), options: DEFAULT_RETRIEVAL_OPTIONS },
    );
    expect(searched).toEqual([withoutQuestionPhrases(question)]);
    expect(searched[0]).not.toContain("什么");
    expect(searched[0]?.split("\n")).toHaveLength(2);
    expect(embedded).toEqual([question]);
  });

  it("embeds the question behind the vector leg's query prefix, and searches keywords without it", async ({
    expect,
  }) => {
    const embedded: string[] = [];
    const keywords = new FakeKeywords(nodes);
    const searched: string[] = [];
    const search = keywords.search.bind(keywords);
    keywords.search = async (q) => {
      searched.push(q.text);
      return search(q);
    };
    const result = await retrieve(
      {
        keywords,
        store: new FakeStore(nodes),
        vectors: new CannedVectors(["a2"]),
        embedder: {
          ...embedder,
          async embed(texts: readonly string[]) {
            embedded.push(...texts);
            return embedder.embed(texts);
          },
        },
      },
      {
        query: "风神",
        filter: filter(["collection:a"]),
        options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
          candidates: { vector: { queryPrefix: "为这个句子生成表示以用于检索相关文章：" } },
        }),
      },
    );
    expect(embedded).toEqual(["为这个句子生成表示以用于检索相关文章：风神"]);
    expect(searched).toEqual(["风神"]);
    // The vector leg's hit is fused in: a2 does not hold the query word.
    expect(result.items.map((i) => i.node.nodeId)).toContain("a2");
  });
});

describe("helpers", () => {
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
});
