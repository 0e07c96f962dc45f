import { type EmbeddingSlot, knowledgeMaintenance } from "@src/domain/knowledge/knowledge-maintenance";
import type { Removed } from "@src/domain/knowledge/knowledge-store";
import type { EmbeddingStore } from "@src/domain/retrieval/embedding-cache";
import type { EmbeddingModel, VectorIndex } from "@src/domain/retrieval/ports";
import { describe, it } from "vitest";

const REMOVED: Removed = { nodeIds: ["n1", "n2"], hashes: ["h1"] };

function world(options: { found: boolean }) {
  const calls: string[] = [];
  const index = (name: string, external: boolean): VectorIndex => ({
    external,
    query: async () => [],
    upsert: async () => {},
    remove: async (ids) => {
      calls.push(`${name}.remove ${ids.join(",")}`);
    },
  });
  const model = (id: string): EmbeddingModel => ({ id, version: "1", dims: 4 });
  const slot = (key: string, external: boolean): EmbeddingSlot => ({
    key,
    embedder: {
      model: model(key),
      embed: async () => ({ ok: true, value: [] }),
    } as unknown as EmbeddingSlot["embedder"],
    index: index(key, external),
    fusionWeight: 1,
  });
  const embeddings = {
    forgetSynced: async (m: EmbeddingModel, ids: readonly string[]) => {
      calls.push(`forgetSynced ${m.id} ${ids.join(",")}`);
    },
    collectGarbage: async (hashes: readonly string[]) => {
      calls.push(`collectGarbage ${hashes.join(",")}`);
      return hashes.length;
    },
  } as unknown as EmbeddingStore;
  const store = {
    deleteDocument: async (collection: string, source: string) => {
      calls.push(`deleteDocument ${collection}/${source}`);
      return options.found ? REMOVED : null;
    },
    deleteCollection: async (name: string) => {
      calls.push(`deleteCollection ${name}`);
      return options.found ? REMOVED : null;
    },
  };
  const slots = [slot("vectorize", true), slot("d1", false)];
  return { calls, m: knowledgeMaintenance({ store, embeddings, maintained: () => slots, now: () => 0 }) };
}

describe("knowledgeMaintenance: removals take their derived data with them", () => {
  const removals = [
    {
      name: "removes a document, then its vectors from external indexes only, then unreferenced embeddings",
      remove: (m: ReturnType<typeof world>["m"]) => m.removeDocument("guide", "a.md"),
      deleted: "deleteDocument guide/a.md",
    },
    {
      name: "does the same for a collection",
      remove: (m: ReturnType<typeof world>["m"]) => m.removeCollection("guide"),
      deleted: "deleteCollection guide",
    },
  ];
  for (const c of removals)
    it(c.name, async ({ expect }) => {
      const { calls, m } = world({ found: true });
      expect(await c.remove(m)).toEqual(REMOVED);
      expect(calls).toEqual([
        c.deleted,
        "vectorize.remove n1,n2",
        "forgetSynced vectorize n1,n2",
        "collectGarbage h1",
      ]);
    });

  it("touches nothing else when nothing had that name", async ({ expect }) => {
    const { calls, m } = world({ found: false });
    expect(await m.removeDocument("guide", "missing.md")).toBeNull();
    expect(await m.removeCollection("missing")).toBeNull();
    expect(calls).toEqual(["deleteDocument guide/missing.md", "deleteCollection missing"]);
  });
});
