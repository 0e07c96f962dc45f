import type { ContextNode, NodeType } from "@src/domain/retrieval/context-node";
import { parentFamilies } from "@src/domain/retrieval/parent-families";
import type { ContextStore, Family } from "@src/domain/retrieval/ports";
import { CHARS_PER_TOKEN_AT_MOST, estimateTokens } from "@src/domain/text/token-estimate";
import { describe, it } from "vitest";
import { node as fakeNode } from "../../fakes/retrieval-ports";

/** A node of document `doc` in collection k, under `parentId`. */
const node = (id: string, parentId: string | null, nodeType: NodeType = "passage"): ContextNode =>
  fakeNode(id, "collection:k", `text of ${id}`, { parentId, rootId: "doc", nodeType, sourceId: "a.md" });

/** A store holding parents p1..p3 with two passages each, recording what it is asked to read. */
function recordingStore() {
  const asked: { children: string[][]; loads: string[][] } = { children: [], loads: [] };
  const parents = ["p1", "p2", "p3"].map((p) => node(p, null, "section"));
  const store: ContextStore = {
    load: async (ids) => {
      asked.loads.push([...ids]);
      return parents.filter((p) => ids.includes(p.nodeId));
    },
    childrenOf: async (ids) => {
      asked.children.push([...ids]);
      return new Map(ids.map((id) => [id, [node(`${id}-a`, id), node(`${id}-b`, id)]]));
    },
    size: async () => ({ count: 0, tokens: 0 }),
    readAll: async () => [],
    children: async () => [],
    neighbours: async () => [],
    ancestors: async () => [],
  };
  return { store, asked };
}

const brought = (ids: string[], nodeTypes: NodeType[] = ["passage"]) => ({
  nodeTypes,
  families: new Map<string, Family>(
    ids.map((id) => [id, { parent: node(id, null, "section"), count: 1, text: `text of ${id}-x` }]),
  ),
});

describe("parentFamilies", () => {
  it("reads nothing when the search brought every family", async ({ expect }) => {
    const { store, asked } = recordingStore();
    const r = await parentFamilies(store, ["p1", "p2"], ["passage"], brought(["p1", "p2"]));
    expect(asked).toEqual({ children: [], loads: [] });
    expect(r.families.get("p1")).toEqual({ count: 1, text: "text of p1-x" });
    expect(r.parents.get("p2")?.nodeId).toBe("p2");
  });

  it("reads only the parents the search did not bring", async ({ expect }) => {
    const { store, asked } = recordingStore();
    const r = await parentFamilies(store, ["p1", "p3", "p1"], ["passage"], brought(["p1"]));
    expect(asked).toEqual({ children: [["p3"]], loads: [["p3"]] });
    expect(r.families.get("p1")).toEqual({ count: 1, text: "text of p1-x" });
    expect(r.families.get("p3")).toEqual({ count: 2, text: "text of p3-a\ntext of p3-b" });
  });

  it("ignores families read for other node types", async ({ expect }) => {
    const { store, asked } = recordingStore();
    const r = await parentFamilies(store, ["p1"], ["passage"], brought(["p1"], ["passage", "section"]));
    expect(asked).toEqual({ children: [["p1"]], loads: [["p1"]] });
    expect(r.families.get("p1")).toEqual({ count: 2, text: "text of p1-a\ntext of p1-b" });
  });

  it("merges no child outside its parent's scope", async ({ expect }) => {
    const { store } = recordingStore();
    const foreign = { ...node("p1-z", "p1"), scopeId: "other", collection: "other" };
    const mixed: ContextStore = {
      ...store,
      childrenOf: async () => new Map([["p1", [node("p1-a", "p1"), foreign, node("p1-b", "p1")]]]),
    };
    const r = await parentFamilies(mixed, ["p1"], ["passage"], null);
    expect(r.families.get("p1")).toEqual({ count: 2, text: "text of p1-a\ntext of p1-b" });
  });

  it("keeps a family marked too long as null", async ({ expect }) => {
    const { store } = recordingStore();
    const long = {
      nodeTypes: ["passage"] as NodeType[],
      families: new Map<string, Family>([["p1", { parent: node("p1", null), count: 3, text: null }]]),
    };
    const r = await parentFamilies(store, ["p1"], ["passage"], long);
    expect(r.families.get("p1")).toEqual({ count: 3, text: null });
  });
});

describe("CHARS_PER_TOKEN_AT_MOST", () => {
  it("bounds the estimate: more characters than n × it is more than n tokens", ({ expect }) => {
    for (const text of ["a".repeat(401), "稻妻".repeat(201), "mixed 文本 ".repeat(50), "😀".repeat(201)]) {
      const n = Math.floor(([...text].length - 1) / CHARS_PER_TOKEN_AT_MOST);
      expect(estimateTokens(text)).toBeGreaterThan(n);
    }
  });
});
