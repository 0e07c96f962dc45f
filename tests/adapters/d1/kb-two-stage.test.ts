// The search with two-stage search's second list in one statement (D1KeywordIndex.searchTwoStage):
// where the ranked window holds every match it must give what the flat search, and searching
// the parents and then inside them, give; and it reads only the asked collections.

import type { ScopeKey } from "@src/domain/retrieval/scope-key";
import { describe, it } from "vitest";
import { passagesOf } from "../../support/knowledge-api";
import { index, PARENT_TYPES, store, storyCollection, storyDoc, topic } from "../../support/story-documents";

/** Six documents, each with sections whose passages name two of the topics. */
const doc = (d: number) =>
  storyDoc(d, (s) => ({
    heading: `${topic(d + s)}与${topic(d + 2 * s + 1)}`,
    passages: Array.from(
      { length: 3 },
      (_, p) => `第${d}篇第${s}节第${p}段：${topic(d + s + p)}的故事，提到${topic(d * 2 + p)}，这是记录。`,
    ),
  }));

const seeded = () => storyCollection("twostage", 60, 6, doc);
const filterOf = passagesOf;

/** The two-stage search of one collection, at most 10 hits from 3 parents, the second list above `above`. */
const twoStage = (name: string, text: string, above: number) =>
  index.searchTwoStage({ ...filterOf(name), text, limit: 10, parentTypes: PARENT_TYPES, parents: 3, above });

describe("two-stage search in one ranking", () => {
  it("gives what searching the parents, then inside them, gives when the window holds every match", async ({
    expect,
  }) => {
    const name = await seeded();
    for (const text of ["雷电将军的故事", "影向山 神樱树", "天守阁与稻妻城"]) {
      const parents = await index.search({ ...filterOf(name), nodeTypes: PARENT_TYPES, text, limit: 3 });
      expect(parents.length).toBeGreaterThan(0);
      const rootIds = [
        ...new Set((await store.load(parents.map((p) => p.nodeId))).map((n) => n.rootId ?? n.nodeId)),
      ];
      const twoSteps = await index.search({ ...filterOf(name), rootIds, text, limit: 10 });
      const flat = await index.search({ ...filterOf(name), text, limit: 10 });
      const inOne = await twoStage(name, text, 0);
      expect(inOne?.hits.map((c) => c.nodeId)).toEqual(flat.map((c) => c.nodeId));
      expect(inOne?.inside?.map((c) => c.nodeId)).toEqual(twoSteps.map((c) => c.nodeId));
      // At or below the size, the same hits and no second list.
      const small = await twoStage(name, text, 1_000);
      expect(small?.hits.map((c) => c.nodeId)).toEqual(flat.map((c) => c.nodeId));
      expect(small?.inside).toBeNull();
      // Every hit comes whole, as the store holds it.
      const ids = [...flat, ...twoSteps].map((c) => c.nodeId);
      const loaded = new Map((await store.load(ids)).map((n) => [n.nodeId, n]));
      for (const c of [...(inOne?.hits ?? []), ...(inOne?.inside ?? [])])
        expect(c.node).toEqual(loaded.get(c.nodeId));
    }
  });

  it("reads only the asked collection, whatever an identical one holds", async ({ expect }) => {
    const [a, b] = [await seeded(), await seeded()];
    const inOne = await index.searchTwoStage({
      ...filterOf(a),
      text: "雷电将军的故事",
      limit: 20,
      parentTypes: PARENT_TYPES,
      parents: 12,
      above: 0,
    });
    const all = [...(inOne?.hits ?? []), ...(inOne?.inside ?? [])];
    expect(inOne?.inside?.length).toBeGreaterThan(0);
    for (const c of all) {
      expect(c.node?.scopeId).toBe(a);
      expect(c.node?.nodeType).toBe("passage");
    }
    expect(b).not.toBe(a);
  });

  it("leaves scopes other than collections to the general path", async ({ expect }) => {
    const r = await index.searchTwoStage({
      scopes: ["chat:qq:group:G1" as ScopeKey],
      nodeTypes: ["passage"],
      text: "雷电将军",
      limit: 5,
      parentTypes: PARENT_TYPES,
      parents: 3,
      above: 0,
    });
    expect(r).toBeNull();
  });
});
