import { citationOf } from "@src/domain/retrieval/citation";
import type { RetrievedItem } from "@src/domain/retrieval/retrieved-item";
import { pack, packWhole } from "@src/domain/retrieval/stages/pack";
import { estimateTokens } from "@src/domain/text/token-estimate";
import { describe, it } from "vitest";
import { node } from "../../../fakes/retrieval-ports";

/** A hit whose text is `n` CJK characters (n estimated tokens). */
const hit = (id: string, n: number): RetrievedItem => {
  const text = "风".repeat(n);
  const nd = node(id, "collection:a", text);
  return { node: nd, text, score: 1, via: "hit", coverage: 1, citation: citationOf(nd) };
};

describe("pack", () => {
  it("keeps at most `limit` items, in order, and counts their tokens", ({ expect }) => {
    const packed = pack([hit("a", 10), hit("b", 20), hit("c", 30)], 2, {
      tokenBudget: 1000,
      shareBudget: false,
    });
    expect(packed.items.map((i) => i.node.nodeId)).toEqual(["a", "b"]);
    expect(packed.tokens).toBe(30);
  });

  it("cuts the first item that does not fit to what is left, then stops", ({ expect }) => {
    const packed = pack([hit("a", 100), hit("b", 200), hit("c", 10)], 5, {
      tokenBudget: 250,
      shareBudget: false,
    });
    expect(packed.items.map((i) => i.node.nodeId)).toEqual(["a", "b"]);
    expect(estimateTokens(packed.items[1]?.text ?? "")).toBeLessThanOrEqual(150);
    expect(packed.items[1]?.text.length).toBeLessThan(200);
    expect(packed.tokens).toBeLessThanOrEqual(250);
  });

  it("leaves a remainder too small to be worth a truncated item unused", ({ expect }) => {
    const packed = pack([hit("a", 200), hit("b", 200)], 5, { tokenBudget: 250, shareBudget: false });
    expect(packed.items.map((i) => i.node.nodeId)).toEqual(["a"]);
    expect(packed.tokens).toBe(200);
  });

  it("with a shared budget, cuts a long first item so that the later slots still fit", ({ expect }) => {
    const items = [hit("long", 900), hit("b", 50), hit("c", 50)];
    const alone = pack(items, 3, { tokenBudget: 600, shareBudget: false });
    expect(alone.items.map((i) => i.node.nodeId)).toEqual(["long"]);
    const shared = pack(items, 3, { tokenBudget: 600, shareBudget: true });
    expect(shared.items.map((i) => i.node.nodeId)).toEqual(["long", "b", "c"]);
    expect(shared.tokens).toBeLessThanOrEqual(600);
    expect(estimateTokens(shared.items[0]?.text ?? "")).toBeLessThan(900);
  });
});

describe("packWhole", () => {
  it("returns every node read whole, past the limit, within the budget", ({ expect }) => {
    const nodes = ["甲", "乙", "丙"].map((t, i) => node(`n${i}`, "collection:a", t));
    const packed = packWhole(nodes, 1, { tokenBudget: 100, shareBudget: false });
    expect(packed.items.map((i) => [i.node.nodeId, i.via, i.score, i.text])).toEqual([
      ["n0", "whole", 1, "甲"],
      ["n1", "whole", 1, "乙"],
      ["n2", "whole", 1, "丙"],
    ]);
    expect(packed.tokens).toBe(3);
  });
});
