// The D1 keyword index hands on the rows it reads with its hits: the same rows the store loads,
// only for what its filter passes, and a search that uses them reads no row twice.
import { env } from "cloudflare:workers";
import { D1ContextStore } from "@src/adapters/d1/d1-context-store";
import { D1KeywordIndex } from "@src/adapters/d1/d1-keyword-index";
import type { ContextStore } from "@src/domain/retrieval/ports";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import { collectionScope } from "@src/domain/retrieval/scope-key";
import { describe, it } from "vitest";
import { createCollection, uniqueName, upload } from "../../support/knowledge-api";

const index = new D1KeywordIndex(env.DB);
const store = new D1ContextStore(env.DB);

// Four sections of three paragraphs, each paragraph about one chunk.
const TEXT = [
  "# 稻妻",
  ...Array.from({ length: 4 }, (_, s) => [
    `## 第${s + 1}节`,
    ...Array.from(
      { length: 3 },
      (_, p) =>
        `第${s + 1}节第${p + 1}段：稻妻的雷电将军守护永恒，鸣神大社位于影向山顶，这是记录${s * 3 + p}。`,
    ),
  ]).flat(),
].join("\n\n");

async function seeded(): Promise<string> {
  const name = uniqueName("carry");
  await createCollection(name, { chunkSize: 50, chunkOverlap: 0 });
  const r = await upload(name, [{ name: "inazuma.md", content: TEXT }]);
  if (r.status !== 200) throw new Error(`upload: ${r.status}`);
  return name;
}

describe("rows carried by the keyword search", () => {
  it("are the store's own rows, for every hit up to the limit", async ({ expect }) => {
    const name = await seeded();
    const hits = await index.search({
      scopes: [collectionScope(name)],
      nodeTypes: ["passage"],
      collections: [name],
      text: "雷电将军 鸣神大社",
      limit: 5,
    });
    expect(hits.length).toBe(5);
    const loaded = new Map((await store.load(hits.map((h) => h.nodeId))).map((n) => [n.nodeId, n]));
    for (const h of hits) expect(h.node).toEqual(loaded.get(h.nodeId));
  });

  it("are not handed on for rows the filter rejects", async ({ expect }) => {
    const name = await seeded();
    // Sections of the same collection rank in the same window; asked for sections, no passage
    // row may come back, carried or not.
    const hits = await index.search({
      scopes: [collectionScope(name)],
      nodeTypes: ["section", "document"],
      collections: [name],
      text: "雷电将军 鸣神大社",
      limit: 5,
    });
    for (const h of hits) expect(h.node?.nodeType ?? "section").not.toBe("passage");
    const types = new Set((await store.load(hits.map((h) => h.nodeId))).map((n) => n.nodeType));
    expect(types.has("passage")).toBe(false);
  });

  it("spare the pipeline its load of the hits, and the parents come with them", async ({ expect }) => {
    const name = await seeded();
    const loads: string[][] = [];
    const childReads: string[][] = [];
    const counting: ContextStore = {
      load: (ids) => {
        loads.push([...ids]);
        return store.load(ids);
      },
      size: (f) => store.size(f),
      readAll: (f, limit) => store.readAll(f, limit),
      children: (id, limit) => store.children(id, limit),
      childrenOf: (ids, types) => {
        childReads.push([...ids]);
        return store.childrenOf(ids, types);
      },
      neighbours: (ids, radius) => store.neighbours(ids, radius),
      ancestors: (id) => store.ancestors(id),
    };
    const result = await retrieve(
      { keywords: index, store: counting },
      {
        query: "雷电将军 鸣神大社",
        filter: { scopes: [collectionScope(name)], nodeTypes: ["passage"], collections: [name] },
        options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { limit: 4, expand: { parentTokens: 500 } }),
      },
    );
    expect(result.items.length).toBeGreaterThan(0);
    const passageIds = new Set(
      result.items.filter((i) => i.node.nodeType === "passage").map((i) => i.node.nodeId),
    );
    // Parents were merged, from the families the search brought: nothing is read after it.
    expect(result.items.some((i) => i.via === "parent")).toBe(true);
    expect(passageIds.size).toBeLessThan(result.items.length);
    expect(loads).toEqual([]);
    expect(childReads).toEqual([]);
  });
});
