import type { ContextNode } from "@src/domain/retrieval/context-node";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import type { ScoredHit } from "@src/domain/retrieval/retrieved-item";
import { expandHits, type Gate } from "@src/domain/retrieval/stages/expand";
import { describe, it } from "vitest";
import { FakeKeywords, FakeStore, filter, node } from "../../../fakes/retrieval-ports";

const NO_EXPANSION = { neighbours: 0, hits: 0, after: 0, parentTokens: 0 };
const scored = (n: ContextNode, score: number): ScoredHit => ({ node: n, score, coverage: 0.5 });
/** A gate that passes every node: these tests are about placement, not about reading. */
const OPEN: Gate = () => true;

/** A store whose nodes are one conversation: neighbours by position, under one parent. */
class TurnStore extends FakeStore {
  override async neighbours(ids: readonly string[], radius: number) {
    const at = new Set(ids.map((id) => this.nodes.find((t) => t.nodeId === id)?.position));
    return this.nodes.filter((t) =>
      [...at].some((p) => p !== undefined && t.position !== p && Math.abs(t.position - p) <= radius),
    );
  }
}

describe("neighbour expansion", () => {
  // Through the pipeline: the hits come ranked from the keyword index.
  it.for([
    { expandAfter: 0, order: ["t3", "t2", "t4", "t6", "t8"] },
    { expandAfter: 2, order: ["t3", "t6", "t2", "t4", "t8"] },
    { expandAfter: 9, order: ["t3", "t6", "t8", "t2", "t4"] },
  ])(
    "places the first hit's neighbours after $expandAfter direct hits",
    async ({ expandAfter, order }, { expect }) => {
      const turns = Array.from({ length: 10 }, (_, i) =>
        node(
          `t${i}`,
          "chat:c",
          i === 3 ? "火锅 火锅 火锅" : i === 8 ? "火锅 火锅" : i === 6 ? "火锅" : `闲聊${i}`,
          {
            position: i,
          },
        ),
      );
      const store = new TurnStore(turns);
      const result = await retrieve(
        { keywords: new FakeKeywords(turns), store },
        {
          query: "火锅 火锅 火锅",
          filter: filter(["chat:c"]),
          options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
            expand: { neighbours: 1, hits: 1, after: expandAfter },
          }),
        },
      );
      expect(result.items.map((i) => i.node.nodeId)).toEqual(order);
      expect(result.items.filter((i) => i.via === "neighbour").map((i) => i.node.nodeId)).toEqual([
        "t2",
        "t4",
      ]);
    },
  );

  it("brings nearest neighbours first, never a hit or a node another hit brought", async ({ expect }) => {
    const turns = Array.from({ length: 8 }, (_, i) => node(`t${i}`, "chat:c", `闲聊${i}`, { position: i }));
    const [t2, t4] = [turns[2], turns[4]].map((t) => scored(t as ContextNode, 1));
    const items = await expandHits(
      new TurnStore(turns),
      [t2, t4].filter((h) => h !== undefined),
      5,
      { ...NO_EXPANSION, neighbours: 2, hits: 2 },
      null,
      OPEN,
    );
    expect(items.map((i) => [i.node.nodeId, i.via])).toEqual([
      ["t2", "hit"],
      ["t1", "neighbour"],
      ["t3", "neighbour"],
      ["t0", "neighbour"],
      ["t4", "hit"],
      ["t5", "neighbour"],
      ["t6", "neighbour"],
    ]);
    // A neighbour carries its hit's score and claims no coverage of its own.
    expect(items.find((i) => i.node.nodeId === "t1")).toMatchObject({ score: 1, coverage: 0 });
  });

  it("never brings a neighbour the gate refuses", async ({ expect }) => {
    const turns = Array.from({ length: 5 }, (_, i) =>
      node(`t${i}`, "chat:c", `闲聊${i}`, { position: i, sensitivity: i === 1 ? "private" : "public" }),
    );
    const items = await expandHits(
      new TurnStore(turns),
      [scored(turns[2] as ContextNode, 1)],
      5,
      { ...NO_EXPANSION, neighbours: 1, hits: 1 },
      null,
      (n) => n.sensitivity === "public",
    );
    expect(items.map((i) => [i.node.nodeId, i.via])).toEqual([
      ["t2", "hit"],
      ["t3", "neighbour"],
    ]);
  });

  it("returns the first `limit` hits as they are when no neighbours are asked for", async ({ expect }) => {
    const turns = Array.from({ length: 4 }, (_, i) => node(`t${i}`, "chat:c", `闲聊${i}`, { position: i }));
    const items = await expandHits(
      new TurnStore(turns),
      turns.map((t, i) => scored(t, 4 - i)),
      2,
      NO_EXPANSION,
      null,
      OPEN,
    );
    expect(items.map((i) => [i.node.nodeId, i.via, i.score, i.coverage])).toEqual([
      ["t0", "hit", 4, 0.5],
      ["t1", "hit", 3, 0.5],
    ]);
  });
});

describe("parent expansion", () => {
  const section = node("s", "collection:a", "", { parentId: null, nodeType: "section" });
  const child = (id: string, text: string, extra: Partial<ContextNode> = {}) =>
    node(id, "collection:a", text, { parentId: "s", ...extra });
  /** A store holding section `s` and its children. */
  const storeOf = (children: ContextNode[]) =>
    new (class extends FakeStore {
      override async load(ids: readonly string[]) {
        return [section, ...this.nodes].filter((n) => ids.includes(n.nodeId));
      }
      override async childrenOf(ids: readonly string[]) {
        return new Map(ids.map((id) => [id, this.nodes.filter((n) => n.parentId === id)]));
      }
    })(children);

  it("returns a short parent whole in place of its first hit, and folds later hits into it", async ({
    expect,
  }) => {
    const children = [child("a", "第一段"), child("b", "第二段"), child("x", "别处", { parentId: "other" })];
    const hits = [scored(children[1] as ContextNode, 3), scored(children[2] as ContextNode, 2)];
    hits.push(scored(children[0] as ContextNode, 1));
    const items = await expandHits(
      storeOf(children),
      hits,
      5,
      { ...NO_EXPANSION, parentTokens: 100 },
      null,
      OPEN,
    );
    expect(items.map((i) => [i.node.nodeId, i.via, i.score])).toEqual([
      ["s", "parent", 3],
      ["x", "hit", 2],
    ]);
    expect(items[0]?.text).toBe("第一段\n第二段");
  });

  it("keeps the hit when the parent is too long, has one child, or lies in another scope", async ({
    expect,
  }) => {
    const long = [child("a", "长".repeat(80)), child("b", "长".repeat(80))];
    const one = [child("a", "独段")];
    const foreign = [child("a", "甲", { scopeId: "b" }), child("b", "乙", { scopeId: "b" })];
    for (const children of [long, one, foreign]) {
      const items = await expandHits(
        storeOf(children),
        [scored(children[0] as ContextNode, 1)],
        5,
        { ...NO_EXPANSION, parentTokens: 100 },
        null,
        OPEN,
      );
      expect(items.map((i) => [i.node.nodeId, i.via])).toEqual([["a", "hit"]]);
    }
  });

  it("keeps the hit when the gate refuses its parent", async ({ expect }) => {
    const children = [child("a", "第一段"), child("b", "第二段")];
    const items = await expandHits(
      storeOf(children),
      [scored(children[0] as ContextNode, 1)],
      5,
      { ...NO_EXPANSION, parentTokens: 100 },
      null,
      (n) => n.nodeId !== "s",
    );
    expect(items.map((i) => [i.node.nodeId, i.via, i.text])).toEqual([["a", "hit", "第一段"]]);
  });

  it("reads at most three times `limit` hits", async ({ expect }) => {
    const children = Array.from({ length: 10 }, (_, i) => child(`c${i}`, `段${i}`, { parentId: `p${i}` }));
    const items = await expandHits(
      storeOf(children),
      children.map((c, i) => scored(c, 10 - i)),
      2,
      { ...NO_EXPANSION, parentTokens: 100 },
      null,
      OPEN,
    );
    expect(items.map((i) => i.node.nodeId)).toEqual(["c0", "c1", "c2", "c3", "c4", "c5"]);
  });
});
