import { err, ok } from "@src/domain/kernel/result";
import type { ContextNode } from "@src/domain/retrieval/context-node";
import type { Reranker } from "@src/domain/retrieval/ports";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import type { RankedNode } from "@src/domain/retrieval/retrieved-item";
import { rerankHits } from "@src/domain/retrieval/stages/rerank";
import { describe, it } from "vitest";
import { filter, node, portsOver } from "../../../fakes/retrieval-ports";

const OFF = DEFAULT_RETRIEVAL_OPTIONS.rerank;
/** Candidates in fused order, with fused (RRF) scores, which stay below 1. */
const ranked = (...ids: string[]): RankedNode[] =>
  ids.map((id, i) => ({ node: node(id, "collection:a", `文本${id}`, { rootId: id }), score: 1 / (61 + i) }));
const ids = (xs: readonly RankedNode[]) => xs.map((x) => x.node.nodeId);

/** A reranker that scores each text by where its id stands in `prefer` (first = best). */
const preferring = (prefer: string[], calls: string[][] = []): Reranker => ({
  async rerank(_query, texts) {
    calls.push([...texts]);
    return ok(texts.map((t) => prefer.length - prefer.indexOf(t.replace("文本", ""))));
  },
});

describe("rerank", () => {
  it("reorders the head by the reranker, fused with the first-stage order, above the rest", async ({
    expect,
  }) => {
    const calls: string[][] = [];
    const out = await rerankHits(
      preferring(["c", "b", "a"], calls),
      "q",
      ranked("a", "b", "c", "d"),
      10,
      { ...OFF, enabled: true, depth: 3, weight: 2 },
      60,
    );
    expect(calls).toEqual([["文本a", "文本b", "文本c"]]);
    // At weight 2 the reranker's order wins; d, beyond the depth, stays last.
    expect(ids(out)).toEqual(["c", "b", "a", "d"]);
  });

  it("keeps the first-stage order when the reranker fails, is off, or has one candidate", async ({
    expect,
  }) => {
    const failing: Reranker = { rerank: async () => err({ kind: "unavailable", message: "down" }) };
    const on = { ...OFF, enabled: true };
    expect(ids(await rerankHits(failing, "q", ranked("a", "b"), 10, on, 60))).toEqual(["a", "b"]);
    const calls: string[][] = [];
    expect(ids(await rerankHits(preferring(["b", "a"], calls), "q", ranked("a", "b"), 10, OFF, 60))).toEqual([
      "a",
      "b",
    ]);
    await rerankHits(preferring(["a"], calls), "q", ranked("a"), 10, on, 60);
    expect(calls).toEqual([]);
  });
});

describe("diversify", () => {
  it("drops a repeated text and caps the hits per root", async ({ expect }) => {
    const same = (id: string, root: string, text: string): RankedNode => ({
      node: node(id, "collection:a", text, { rootId: root }),
      score: 1,
    });
    const hits = [
      same("a1", "a", "甲"),
      same("a2", "a", "乙"),
      same("a3", "a", "丙"),
      same("b1", "b", " 甲 "),
    ];
    expect(ids(await rerankHits(null, "q", hits, 10, OFF, 60))).toEqual(["a1", "a2", "a3"]);
    expect(ids(await rerankHits(null, "q", hits, 10, { ...OFF, perRoot: 2 }, 60))).toEqual(["a1", "a2"]);
  });

  it("hands expansion at most three times `limit` hits", async ({ expect }) => {
    const many = ranked(...Array.from({ length: 10 }, (_, i) => `n${i}`));
    expect(await rerankHits(null, "q", many, 2, OFF, 60)).toHaveLength(6);
  });
});

describe("memory scoring", () => {
  it("weighs each score by importance × recency", async ({ expect }) => {
    const day = 86_400_000;
    const at = (id: string, importance: number, updatedAt: number): RankedNode => ({
      node: node(id, "chat:c", id, { nodeType: "memory", importance, updatedAt } as Partial<ContextNode>),
      score: 1,
    });
    const out = await rerankHits(
      null,
      "q",
      [at("old", 0.5, 0), at("new", 0.5, 30 * day)],
      10,
      { ...OFF, memory: { now: 30 * day, halfLifeDays: 30 } },
      60,
    );
    expect(out.map((x) => [x.node.nodeId, x.score])).toEqual([
      ["new", 1],
      ["old", 0.75],
    ]);
  });

  it("ranks memory by importance and recency when asked to", async ({ expect }) => {
    const day = 86_400_000;
    const memories = [
      node("old", "chat:c", "生日 礼物 是书", { nodeType: "memory", importance: 0.9, updatedAt: 0 }),
      node("new", "chat:c", "生日 礼物 是花", { nodeType: "memory", importance: 0.9, updatedAt: 400 * day }),
      node("minor", "chat:c", "生日 礼物 是糖", {
        nodeType: "memory",
        importance: 0.1,
        updatedAt: 400 * day,
      }),
    ];
    const result = await retrieve(portsOver(memories), {
      query: "生日",
      filter: filter(["chat:c"], ["memory"]),
      options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
        rerank: { memory: { now: 401 * day, halfLifeDays: 30 } },
      }),
    });
    expect(result.items.map((i) => i.node.nodeId)).toEqual(["new", "old", "minor"]);
  });
});
