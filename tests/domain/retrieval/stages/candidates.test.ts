import type { KeywordIndex } from "@src/domain/retrieval/ports";
import { withoutQuestionPhrases } from "@src/domain/retrieval/question-phrases";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import { gatherCandidates } from "@src/domain/retrieval/stages/candidates";
import { readQuery } from "@src/domain/retrieval/stages/read-query";
import { describe, it } from "vitest";
import {
  CannedVectors,
  embedder,
  FakeKeywords,
  FakeStore,
  filter,
  mixedScopeNodes,
  node,
  recordingKeywords,
} from "../../../fakes/retrieval-ports";

describe("candidates", () => {
  const nodes = mixedScopeNodes();

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
    const { keywords, searched } = recordingKeywords(nodes);
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

  it("embeds the question as a query (the model puts its own instruction before it), and fuses the vector leg", async ({
    expect,
  }) => {
    const embedded: string[] = [];
    const { keywords, searched } = recordingKeywords(nodes);
    const result = await retrieve(
      {
        keywords,
        store: new FakeStore(nodes),
        vectors: new CannedVectors(["a2"]),
        embedder: {
          ...embedder,
          async embed(texts: readonly string[], purpose: "query" | "document") {
            embedded.push(...texts.map((t) => `${purpose}:${t}`));
            return embedder.embed(texts);
          },
        },
      },
      {
        query: "风神",
        filter: filter(["collection:a"]),
        options: DEFAULT_RETRIEVAL_OPTIONS,
      },
    );
    expect(embedded).toEqual(["query:风神"]);
    expect(searched).toEqual(["风神"]);
    // The vector leg's hit is fused in: a2 does not hold the query word.
    expect(result.items.map((i) => i.node.nodeId)).toContain("a2");
  });

  it("asks each leg for its own window", async ({ expect }) => {
    const keywords = new FakeKeywords(nodes);
    const windows: Record<string, number> = {};
    const search = keywords.search.bind(keywords);
    keywords.search = async (q) => {
      windows.keyword = q.limit;
      return search(q);
    };
    const vectors = new CannedVectors(["a2"]);
    vectors.query = async (q) => {
      windows.vector = q.limit;
      return [];
    };
    const options = withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
      candidates: { keywordWindow: 7, vector: { window: 3 }, twoStageAbove: 0 },
    });
    const found = await gatherCandidates(
      { keywords, store: new FakeStore(nodes), vectors, embedder },
      filter(["collection:a"]),
      readQuery("风神", options),
      options,
    );
    expect(windows).toEqual({ keyword: 7, vector: 3 });
    expect(found.kind === "searched" && found.legs.keyword.map((c) => c.nodeId)).toEqual(["a1", "a3"]);
  });

  it("finds nothing to search for in a query without a searchable token when nothing embeds", async ({
    expect,
  }) => {
    const keywords = new FakeKeywords(nodes);
    let searched = 0;
    keywords.search = async () => {
      searched++;
      return [];
    };
    const found = await gatherCandidates(
      { keywords, store: new FakeStore(nodes) },
      filter(["collection:a"]),
      readQuery("？！", DEFAULT_RETRIEVAL_OPTIONS),
      DEFAULT_RETRIEVAL_OPTIONS,
    );
    expect(found).toEqual({ kind: "nothing" });
    expect(searched).toBe(0);
  });
});
