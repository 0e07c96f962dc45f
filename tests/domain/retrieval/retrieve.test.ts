import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import { estimateTokens } from "@src/domain/text/token-estimate";
import { describe, it } from "vitest";
import { filter, mixedScopeNodes, portsOver } from "../../fakes/retrieval-ports";

describe("retrieve", () => {
  const nodes = mixedScopeNodes();

  it("returns nothing for an empty scope set, whatever the indexes say", async ({ expect }) => {
    const result = await retrieve(portsOver(nodes, ["a1"]), {
      query: "风神",
      filter: filter([]),
      options: DEFAULT_RETRIEVAL_OPTIONS,
    });
    expect(result.items).toEqual([]);
  });

  it("runs the stages in order: hits of the readable scope, re-checked, packed with citations", async ({
    expect,
  }) => {
    const result = await retrieve(portsOver(nodes, ["b1", "a3", "a2"]), {
      query: "风神",
      filter: filter(["collection:a"]),
      options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { candidates: { twoStageAbove: 0 } }),
    });
    expect(result.strategy).toBe("flat");
    // a1 holds the word and is ranked by both legs' fusion; a2 only by the vector leg.
    expect(result.items.map((i) => [i.node.nodeId, i.via])).toEqual([
      ["a1", "hit"],
      ["a2", "hit"],
    ]);
    expect(result.items.map((i) => i.citation.node_id)).toEqual(["a1", "a2"]);
    expect(result.tokens).toBe(result.items.reduce((n, i) => n + estimateTokens(i.text), 0));
    // b1 (another collection) and a3 (archived) were dropped by the recheck.
    expect(result.dropped).toBe(2);
  });

  it("answers nothing for a limit of 0", async ({ expect }) => {
    const result = await retrieve(portsOver(nodes), {
      query: "风神",
      filter: filter(["collection:a"]),
      options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { limit: 0 }),
    });
    expect(result).toEqual({ items: [], strategy: "empty", tokens: 0, dropped: 0 });
  });
});
