import { err, ok } from "@src/domain/kernel/result";
import type { MemoryItem } from "@src/domain/memory/memory";
import { type RecallRequest, recallMemory } from "@src/domain/memory/recall";
import { recallCandidates } from "@src/domain/memory/recall-candidates";
import { turnScopes } from "@src/domain/memory/scope";
import type { Candidate, Embedder, IndexFilter, VectorEntry, VectorIndex } from "@src/domain/retrieval/ports";
import { ALL_LEVELS } from "@src/domain/retrieval/read-gate";
import type { VectorSearchDeps } from "@src/domain/retrieval/vector-search";
import { describe, it } from "vitest";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";

const NOW = 1_700_000_000_000;
const G1 = "chat:qq:group:G1";

/** Answers every query with the same ids, whatever the filter: a stale or mislabelled index. */
class ScriptedVectors implements VectorIndex {
  readonly external = true;
  readonly queries: (IndexFilter & { limit: number })[] = [];
  constructor(readonly ids: readonly string[]) {}
  async query(q: IndexFilter & { embedding: readonly number[]; limit: number }): Promise<Candidate[]> {
    const { embedding: _embedding, ...filter } = q;
    this.queries.push(filter);
    return this.ids.slice(0, q.limit).map((nodeId, i) => ({ nodeId, score: 1 - i / 100 }));
  }
  async upsert(_entries: readonly VectorEntry[]) {}
  async remove(_ids: readonly string[]) {}
}

const embedder: Embedder = {
  model: { id: "test", version: "1", dims: 2 },
  maxBatch: 10,
  async embed(texts) {
    return ok(texts.map(() => [1, 0]));
  },
};

function request(over: Partial<RecallRequest> = {}): RecallRequest {
  return {
    text: "feline pets",
    scopes: turnScopes({ session: "qq:group:G1", identity: null }),
    soft: false,
    limit: 5,
    now: NOW,
    halfLifeDays: 30,
    timeZone: "Asia/Shanghai",
    ...over,
  };
}

function setup(items: MemoryItem[], vectorIds: (items: MemoryItem[]) => string[]) {
  const memory = new InMemoryMemory(items);
  const index = new ScriptedVectors(vectorIds(items));
  const vectors: VectorSearchDeps = { embedder, vectors: index, vectorWeight: 1 };
  return { memory, index, vectors };
}

const texts = (r: { item: MemoryItem }[]) => r.map((x) => x.item.text);

describe("memory recall with vectors", () => {
  it("recalls an item the vector index finds though it shares no word with the query", async ({ expect }) => {
    const tabby = memoryItem(G1, "Alice adopted a tabby last spring");
    const { memory, index, vectors } = setup([tabby], () => [tabby.nodeId]);

    expect(await recallMemory({ index: memory }, request())).toEqual([]);
    const found = await recallMemory({ index: memory, vectors }, request());
    expect(texts(found)).toEqual(["Alice adopted a tabby last spring"]);
    // The readable scopes, each at the levels the read gate gives it.
    expect(index.queries).toEqual([
      {
        scopes: [G1, "global:__global__"],
        levels: new Map([
          [G1, ALL_LEVELS],
          ["global:__global__", ALL_LEVELS],
        ]),
        nodeTypes: ["memory"],
        limit: expect.any(Number),
      },
    ]);
  });

  it("ranks an item found by both full text and vectors above one found by full text alone", async ({
    expect,
  }) => {
    const both = memoryItem(G1, "Bob keeps feline pets, a tabby");
    const textOnly = memoryItem(G1, "Carol likes pets");
    const { memory, vectors } = setup([textOnly, both], () => [both.nodeId]);
    const found = await recallMemory({ index: memory, vectors }, request({ text: "pets" }));
    expect(texts(found)).toEqual(["Bob keeps feline pets, a tabby", "Carol likes pets"]);
  });

  it.for([
    { name: "another chat", scope: "chat:qq:group:G2", sensitivity: "public" as const, portable: true },
    { name: "a private chat", scope: "chat:qq:private:U9", sensitivity: "private" as const, portable: true },
    { name: "another person", scope: "person:bob", sensitivity: "secret_like" as const, portable: true },
  ])("drops a vector hit of $name's scope (hard scope)", async (c, { expect }) => {
    const own = memoryItem(G1, "Alice adopted a tabby");
    const foreign = memoryItem(c.scope, "Dave's cat is called Mochi", {
      sensitivity: c.sensitivity,
      portable: c.portable,
    });
    const { memory, vectors } = setup([own, foreign], () => [foreign.nodeId, own.nodeId]);
    const found = await recallMemory({ index: memory, vectors }, request());
    expect(texts(found)).toEqual(["Alice adopted a tabby"]);
  });

  it.for([
    { name: "private", sensitivity: "private" as const, portable: true },
    { name: "secret_like", sensitivity: "secret_like" as const, portable: true },
    { name: "public but not portable", sensitivity: "public" as const, portable: false },
  ])("soft scope never takes a $name item of another scope from a vector hit", async (c, { expect }) => {
    const own = memoryItem(G1, "Alice adopted a tabby");
    const foreign = memoryItem("chat:qq:private:U9", "Dave's cat is called Mochi", {
      sensitivity: c.sensitivity,
      portable: c.portable,
    });
    const { memory, vectors } = setup([own, foreign], () => [foreign.nodeId, own.nodeId]);
    const found = await recallMemory({ index: memory, vectors }, request({ soft: true }));
    expect(texts(found)).toEqual(["Alice adopted a tabby"]);
  });

  it.for(["archived", "superseded"] as const)(
    "drops a %s item a stale vector still returns",
    async (status, { expect }) => {
      const gone = memoryItem(G1, "Alice adopted a tabby", { status });
      const { memory, vectors } = setup([gone], () => [gone.nodeId, "m_unknown"]);
      expect(await recallMemory({ index: memory, vectors }, request())).toEqual([]);
      expect(await recallMemory({ index: memory, vectors }, request({ soft: true }))).toEqual([]);
    },
  );

  it("drops vector hits that are not memory items at all", async ({ expect }) => {
    const { memory, vectors } = setup([], () => ["passage-1"]);
    expect(await recallMemory({ index: memory, vectors }, request())).toEqual([]);
  });

  const failures: { name: string; vectors: (index: VectorIndex) => VectorSearchDeps | null }[] = [
    { name: "no vector ports", vectors: () => null },
    { name: "a fusion weight of 0", vectors: (index) => ({ embedder, vectors: index, vectorWeight: 0 }) },
    { name: "no embedder", vectors: (index) => ({ embedder: null, vectors: index, vectorWeight: 1 }) },
    {
      name: "a failing embedder",
      vectors: (index) => ({
        embedder: { ...embedder, embed: async () => err({ kind: "unavailable", message: "down" }) },
        vectors: index,
      }),
    },
    {
      name: "a throwing embedder",
      vectors: (index) => ({
        embedder: {
          ...embedder,
          embed: async () => {
            throw new Error("boom");
          },
        },
        vectors: index,
      }),
    },
    {
      name: "a throwing index",
      vectors: (index) => ({
        embedder,
        vectors: Object.assign(Object.create(index), {
          query: async () => {
            throw new Error("Vectorize unavailable");
          },
        }),
      }),
    },
  ];

  it.for(failures)("recalls exactly what full text finds with $name", async (c, { expect }) => {
    const items = [
      memoryItem(G1, "Alice likes feline pets", { importance: 0.4 }),
      memoryItem("global:__global__", "pets are allowed in the office", { importance: 0.9 }),
      memoryItem(G1, "Alice adopted a tabby"),
      memoryItem("chat:qq:group:G2", "Dave has feline pets too"),
    ];
    const { memory, index } = setup(items, (all) => all.map((m) => m.nodeId).reverse());
    for (const soft of [false, true]) {
      const ftsOnly = await recallMemory({ index: memory }, request({ soft }));
      const found = await recallMemory({ index: memory, vectors: c.vectors(index) }, request({ soft }));
      expect(found).toEqual(ftsOnly);
      expect(texts(found)).not.toContain("Alice adopted a tabby");
    }
  });

  it("keeps full-text hits when the store re-check of vector hits fails", async ({ expect }) => {
    const items = [memoryItem(G1, "Alice likes feline pets"), memoryItem(G1, "Alice adopted a tabby")];
    const { memory, vectors } = setup(items, (all) => all.map((m) => m.nodeId).reverse());
    memory.load = async () => {
      throw new Error("D1 unavailable");
    };
    const found = await recallMemory({ index: memory, vectors }, request());
    expect(texts(found)).toEqual(["Alice likes feline pets"]);
  });
});

describe("recallCandidates: the store re-check of vector candidates", () => {
  const readable = turnScopes({ session: "qq:group:G1", identity: null }).readable;
  const query = (soft: boolean) => ({ text: "feline pets", scopes: readable, soft, limit: 20, perScope: 10 });

  it.for([
    { name: "another chat's public item (hard scope)", soft: false, scope: "chat:qq:group:G2", over: {} },
    {
      name: "a private chat's private item",
      soft: true,
      scope: "chat:qq:private:U9",
      over: { sensitivity: "private" as const },
    },
    {
      name: "a person's secret_like item",
      soft: true,
      scope: "person:bob",
      over: { sensitivity: "secret_like" as const },
    },
    { name: "an archived item of the chat", soft: false, scope: G1, over: { status: "archived" as const } },
    { name: "a superseded item of the chat", soft: true, scope: G1, over: { status: "superseded" as const } },
  ])("never passes on $name", async (c, { expect }) => {
    const own = memoryItem(G1, "Alice adopted a tabby");
    const bad = memoryItem(c.scope, "Dave's cat is called Mochi", c.over);
    const { memory, vectors } = setup([own, bad], () => [bad.nodeId, own.nodeId]);
    const { hits, dropped } = await recallCandidates({ index: memory, vectors }, query(c.soft));
    expect(hits.map((h) => h.nodeId)).toEqual([own.nodeId]);
    expect(dropped).toBe(1);
  });

  it("passes full-text hits through unchanged when vectors find nothing", async ({ expect }) => {
    const items = [memoryItem(G1, "Alice likes feline pets"), memoryItem(G1, "Bob has pets")];
    const { memory, vectors } = setup(items, () => []);
    const plain = await memory.search({ text: "feline pets", scopes: readable, limit: 20, perScope: 10 });
    expect(await recallCandidates({ index: memory, vectors }, query(false))).toEqual({
      hits: plain,
      dropped: 0,
    });
  });
});
