import type { ContextStore, KeywordIndex } from "@src/domain/retrieval/ports";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import { loadCandidates, recheck } from "@src/domain/retrieval/stages/recheck";
import { describe, it } from "vitest";
import { FakeStore, filter, mixedScopeNodes, node, portsOver } from "../../../fakes/retrieval-ports";

describe("recheck", () => {
  const nodes = mixedScopeNodes();

  it("drops vector hits from other scopes, archived nodes and other node types", async ({ expect }) => {
    const result = await retrieve(portsOver(nodes, ["b1", "a3", "m1", "a2"]), {
      query: "风神",
      filter: filter(["collection:a"]),
      options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { candidates: { twoStageAbove: 0 } }),
    });
    expect(result.items.map((i) => i.node.nodeId).sort()).toEqual(["a1", "a2"]);
    expect(result.dropped).toBe(3);
  });

  it("re-checks the rows an index carries as it re-checks loaded ones, and loads only the rest", async ({
    expect,
  }) => {
    // An index handing on rows of another collection, another chat, an archived node and a
    // passage the store no longer holds as active: only the readable active row may surface.
    const carried = [nodes[0], nodes[2], nodes[3], nodes[4]].filter((n) => n !== undefined);
    const loads: string[][] = [];
    const store = new FakeStore(nodes);
    const counting: ContextStore = {
      ...store,
      load: (ids) => {
        loads.push([...ids]);
        return store.load(ids);
      },
      size: () => store.size(),
      readAll: () => store.readAll(),
      children: () => store.children(),
      childrenOf: (ids, types) => store.childrenOf(ids, types),
      neighbours: (ids, r) => store.neighbours(ids, r),
      ancestors: () => store.ancestors(),
    };
    const keywords: KeywordIndex = {
      search: async () => [
        ...carried.map((n, i) => ({ nodeId: n.nodeId, score: 10 - i, node: n })),
        { nodeId: "a2", score: 1 },
      ],
    };
    const result = await retrieve(
      { keywords, store: counting },
      { query: "风神", filter: filter(["collection:a"]), options: DEFAULT_RETRIEVAL_OPTIONS },
    );
    expect(result.items.map((i) => i.node.nodeId).sort()).toEqual(["a1", "a2"]);
    expect(result.dropped).toBe(3);
    // Only the candidate that came without its row was read from the store.
    expect(loads).toEqual([["a2"]]);
  });

  it("recheck keeps only active nodes of the filter", ({ expect }) => {
    const kept = recheck(
      [
        node("x", "collection:a", ""),
        node("y", "collection:a", "", { status: "superseded" }),
        node("z", "collection:b", ""),
      ],
      filter(["collection:a"]),
    );
    expect([...kept.keys()]).toEqual(["x"]);
  });

  it("loads only the candidates no list carried a row for, once each", async ({ expect }) => {
    const loads: string[][] = [];
    const store = new (class extends FakeStore {
      override async load(ids: readonly string[]) {
        loads.push([...ids]);
        return super.load(ids);
      }
    })(nodes);
    const [a1, a2] = nodes;
    const rows = await loadCandidates(
      store,
      [
        { name: "keyword", weight: 1, items: [{ nodeId: "a1", score: 2, ...(a1 ? { node: a1 } : {}) }] },
        {
          name: "vector",
          weight: 1,
          items: [
            { nodeId: "a2", score: 1 },
            { nodeId: "b1", score: 0.5 },
          ],
        },
      ],
      [
        { nodeId: "a2", score: 3 },
        { nodeId: "a1", score: 2 },
        { nodeId: "b1", score: 1 },
        { nodeId: "a2", score: 1 },
      ],
    );
    expect(loads).toEqual([["a2", "b1"]]);
    expect(rows.map((n) => n.nodeId)).toEqual(["a1", "a2", "b1"]);
    expect(rows[1]).toBe(a2);
  });
});
