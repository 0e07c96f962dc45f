import { DEFAULT_RETRIEVAL_OPTIONS } from "@src/domain/retrieval/retrieval-options";
import { candidateLists, reciprocalRankFusion, withBoosts } from "@src/domain/retrieval/stages/fuse";
import { describe, it } from "vitest";

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

describe("candidate lists", () => {
  const legs = {
    keyword: [{ nodeId: "k", score: 3 }],
    inside: [{ nodeId: "i", score: 2 }],
    vector: [{ nodeId: "v", score: 0.9 }],
  };

  it("weighs each leg by its fuse weight, the vector leg also by the read model's", ({ expect }) => {
    const fuse = { ...DEFAULT_RETRIEVAL_OPTIONS.fuse, weights: { keyword: 1, inside: 0.5, vector: 2 } };
    expect(candidateLists(legs, fuse, 0.25).map((l) => [l.name, l.weight, l.items])).toEqual([
      ["keyword", 1, legs.keyword],
      ["inside", 0.5, legs.inside],
      ["vector", 0.5, legs.vector],
    ]);
    // A model without a weight of its own counts 1.
    expect(candidateLists(legs, fuse)[2]?.weight).toBe(2);
  });

  it("lets a boost lift a candidate over a better-fused one, ties broken by id", ({ expect }) => {
    const ranking = [
      { nodeId: "b", score: 0.03 },
      { nodeId: "a", score: 0.02 },
      { nodeId: "c", score: 0.02 },
    ];
    expect(withBoosts(ranking, new Map([["c", 0.02]])).map((c) => c.nodeId)).toEqual(["c", "b", "a"]);
    expect(withBoosts(ranking, new Map()).map((c) => c.nodeId)).toEqual(["b", "a", "c"]);
  });
});
