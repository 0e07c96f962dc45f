import { fieldsOf } from "@src/domain/retrieval/field-score";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import type { RankedNode } from "@src/domain/retrieval/retrieved-item";
import { coverageChecked, coverageMeter, coverageOf } from "@src/domain/retrieval/stages/coverage";
import { evidenceTokens } from "@src/domain/retrieval/stages/read-query";
import { queryTokens } from "@src/domain/text/search-tokens";
import { describe, it } from "vitest";
import { filter, mixedScopeNodes, node, portsOver } from "../../../fakes/retrieval-ports";

const UNFIELDED = { fielded: false, terms: null, fields: null };

describe("coverage", () => {
  const nodes = mixedScopeNodes();

  it("applies the coverage threshold of automatic recall", async ({ expect }) => {
    const result = await retrieve(portsOver(nodes), {
      query: "璃月 岩神 往事",
      filter: filter(["collection:a"]),
      options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { coverage: { min: 0.5 } }),
    });
    expect(result.items.map((i) => i.node.nodeId)).toEqual(["a2"]);
  });

  it("reports each returned hit's coverage when no threshold asks for it first", async ({ expect }) => {
    const result = await retrieve(portsOver(nodes), {
      query: "璃月 岩神 往事",
      filter: filter(["collection:a"]),
      options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { coverage: { min: 0 } }),
    });
    const asked = new Set(queryTokens("璃月 岩神 往事", 96));
    expect(result.items.length).toBeGreaterThan(0);
    for (const it of result.items) expect(it.coverage).toBe(coverageOf(asked, it.node.retrievalText));
    expect(result.items.find((i) => i.node.nodeId === "a2")?.coverage).toBeGreaterThan(0.5);
  });

  it("measures the query's tokens in the text, or its weighted terms in the fields when fielded", ({
    expect,
  }) => {
    const n = node("x", "collection:a", "缓存 计算属性", { path: ["计算属性"] });
    const tokens = new Set(queryTokens("缓存 侦听器", 96));
    expect(coverageMeter(tokens, UNFIELDED)(n)).toBe(coverageOf(tokens, n.retrievalText));
    expect(coverageMeter(tokens, UNFIELDED)(n)).toBe(0.5);
    const terms = new Map([
      ["计算属性", 3],
      ["侦听器", 1],
    ]);
    const fields = new Map([["x", fieldsOf(n, evidenceTokens)]]);
    expect(coverageMeter(tokens, { fielded: true, terms, fields })(n)).toBe(0.75);
    // Fields read for the floor alone do not change what coverage measures.
    expect(coverageMeter(tokens, { fielded: false, terms, fields })(n)).toBe(0.5);
  });

  it("keeps the candidates above the threshold, and empties the answer below the floor", ({ expect }) => {
    const ranked: RankedNode[] = [
      { node: node("a", "collection:a", "storetorefs 方法"), score: 2 },
      { node: node("b", "collection:a", "方法"), score: 1 },
    ];
    const cover = (n: { nodeId: string }) => (n.nodeId === "a" ? 1 : 0.5);
    const noFloor = { names: null, fields: null };
    expect(
      coverageChecked(ranked, cover, noFloor, { min: 0.6, relevanceFloor: 0 }).map((x) => x.node.nodeId),
    ).toEqual(["a"]);
    expect(coverageChecked(ranked, cover, noFloor, { min: 0, relevanceFloor: 0.9 })).toHaveLength(2);
    const names = new Map([["pinia", 2]]);
    const fields = new Map(ranked.map((r) => [r.node.nodeId, fieldsOf(r.node, evidenceTokens)]));
    expect(coverageChecked(ranked, cover, { names, fields }, { min: 0, relevanceFloor: 0.5 })).toEqual([]);
  });
});
