// Parent expansion's reads in the search's own statement (searchTwoStage `families`): the parents
// and children it brings must be exactly what the store reads for them, long families must be
// marked, not sent, and a search using them must return what the same search reading them does.
import { env } from "cloudflare:workers";
import { D1KeywordIndex } from "@src/adapters/d1/d1-keyword-index";
import { parentFamilies } from "@src/domain/retrieval/parent-families";
import type { KeywordIndex } from "@src/domain/retrieval/ports";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import { CHARS_PER_TOKEN_AT_MOST, estimateTokens, wideChars } from "@src/domain/text/token-estimate";
import { describe, it } from "vitest";
import { passagesOf, seededCollection } from "../../support/knowledge-api";
import { index, PARENT_TYPES, store, storyCollection, storyDoc, topic } from "../../support/story-documents";

/** Four documents; sections of one to four passages, so families differ in length. */
const doc = (d: number) =>
  storyDoc(d, (s) => ({
    heading: topic(d + s) ?? "",
    passages: Array.from(
      { length: 1 + ((d + s) % 4) },
      (_, p) =>
        `第${d}篇第${s}节第${p}段：${topic(d + s + p)}的故事，这一段讲述当地居民流传已久的传说与风俗。`,
    ),
  }));

const seeded = () => storyCollection("families", 50, 4, doc);
const filterOf = passagesOf;

const ask = (name: string, text: string, families: { of: number; maxTokens: number }, above = 20_000) =>
  index.searchTwoStage({
    ...filterOf(name),
    text,
    limit: 10,
    parentTypes: PARENT_TYPES,
    parents: 3,
    above,
    families,
  });

const codePoints = (s: string) => [...s].length;

/** A seeded collection, a brought family of two or more, and that family's children in order. */
async function familyOfTwo() {
  const name = await seeded();
  const found = await ask(name, "天守阁的故事", { of: 10, maxTokens: 100_000 });
  const family = [...(found?.families?.values() ?? [])].find((f) => f.count > 1);
  if (!family) throw new Error("no family of two");
  const [first, ...rest] = await store.children(family.parent.nodeId, 10);
  if (!first) throw new Error("no child");
  return { name, family, first, rest };
}

describe("families brought by the search", () => {
  it("are the store's parents and active children, for each list's first rows", async ({ expect }) => {
    const name = await seeded();
    for (const above of [20_000, 0]) {
      const r = await ask(name, "雷电将军的故事", { of: 4, maxTokens: 100_000 }, above);
      if (!r?.families) throw new Error("no families");
      const firsts = [...r.hits.slice(0, 4), ...(r.inside ?? []).slice(0, 4)];
      expect(firsts.length).toBeGreaterThan(0);
      const wanted = new Set(firsts.map((h) => h.node?.parentId));
      expect(new Set(r.families.keys())).toEqual(wanted);
      const ids = [...r.families.keys()];
      const read = await store.childrenOf(ids, ["passage"]);
      const parents = new Map((await store.load(ids)).map((p) => [p.nodeId, p]));
      for (const [id, f] of r.families) {
        const children = read.get(id) ?? [];
        expect(f.parent).toEqual(parents.get(id));
        expect(f.count).toBe(children.length);
        expect(f.text).toBe(children.map((c) => c.rawText).join("\n"));
      }
    }
  });

  it("leave out the text of a family that cannot fit the asked tokens, and only that", async ({ expect }) => {
    const name = await seeded();
    const maxTokens = 80;
    const r = await ask(name, "鸣神大社 影向山", { of: 10, maxTokens });
    if (!r?.families) throw new Error("no families");
    const read = await store.childrenOf([...r.families.keys()], ["passage"]);
    const kinds = new Set<string>();
    for (const [id, f] of r.families) {
      const children = read.get(id) ?? [];
      const joined = children.map((c) => c.rawText).join("\n");
      // What the statement can know without the text: the estimate's lower bound.
      const wide = children.reduce((n, c) => n + wideChars(c.rawText), 0);
      const chars = children.reduce((n, c) => n + codePoints(c.rawText), 0);
      const atLeast = wide + (chars - wide) / CHARS_PER_TOKEN_AT_MOST;
      expect(f.count).toBe(children.length);
      if (estimateTokens(joined) <= maxTokens) {
        kinds.add("fits");
        expect(f.text).toBe(joined);
      } else if (atLeast > maxTokens) {
        kinds.add("long");
        expect(f.text).toBeNull();
      } else expect([joined, null]).toContain(f.text);
      // These are Chinese texts short enough that their characters alone (a quarter token each)
      // would have let every one of them through.
      expect(chars).toBeLessThanOrEqual(maxTokens * CHARS_PER_TOKEN_AT_MOST);
    }
    // The seeded sections give both kinds, so both branches were checked.
    expect(kinds).toEqual(new Set(["fits", "long"]));
  });

  it("count each written row's wide characters, and forget the count when its text changes", async ({
    expect,
  }) => {
    const { name, family, first, rest } = await familyOfTwo();
    const wideOf = async (nodeId: string) =>
      (
        await env.DB.prepare("SELECT wide_chars AS w FROM nodes WHERE node_id = ?1")
          .bind(nodeId)
          .first<{ w: number | null }>()
      )?.w;
    expect(await wideOf(first.nodeId)).toBe(wideChars(first.rawText));
    expect(await wideOf(first.nodeId)).toBeGreaterThan(0);
    // A short Latin text in place of the Chinese one: with the old count kept, the family would
    // still look too long for a budget it now fits.
    const text = "a short note";
    await env.DB.prepare("UPDATE nodes SET raw_text = ?2 WHERE node_id = ?1").bind(first.nodeId, text).run();
    expect(await wideOf(first.nodeId)).toBeNull();
    const joined = [text, ...rest.map((c) => c.rawText)].join("\n");
    const maxTokens = estimateTokens(joined);
    const after = await ask(name, "天守阁的故事", { of: 10, maxTokens });
    expect(after?.families?.get(family.parent.nodeId)?.text).toBe(joined);
    // A writer that sets the count with the text keeps it.
    await env.DB.prepare("UPDATE nodes SET raw_text = ?2, wide_chars = ?3 WHERE node_id = ?1")
      .bind(first.nodeId, "天守阁", 3)
      .run();
    expect(await wideOf(first.nodeId)).toBe(3);
  });

  it("hold no archived child", async ({ expect }) => {
    const { name, family, first: gone, rest: kept } = await familyOfTwo();
    await env.DB.prepare("UPDATE nodes SET status = 'archived' WHERE node_id = ?1").bind(gone.nodeId).run();
    const after = await ask(name, "天守阁的故事", { of: 10, maxTokens: 100_000 });
    const same = after?.families?.get(family.parent.nodeId);
    expect(same?.count).toBe(family.count - 1);
    expect(same?.text).toBe(kept.map((c) => c.rawText).join("\n"));
    expect(same?.text).not.toContain(gone.rawText);
  });

  it("hold no child outside the parent's scope, brought or read", async ({ expect }) => {
    const { name, family, first: moved, rest: kept } = await familyOfTwo();
    // A row of another collection that still names the parent: it must not be merged into it.
    await env.DB.prepare("UPDATE nodes SET scope_id = ?2, collection = ?2 WHERE node_id = ?1")
      .bind(moved.nodeId, `${name}-other`)
      .run();
    const keptText = kept.map((c) => c.rawText).join("\n");
    const after = await ask(name, "天守阁的故事", { of: 10, maxTokens: 100_000 });
    expect(after?.families?.get(family.parent.nodeId)).toMatchObject({ count: kept.length, text: keptText });
    const read = await parentFamilies(store, [family.parent.nodeId], ["passage"], null);
    expect(read.families.get(family.parent.nodeId)).toEqual({ count: kept.length, text: keptText });
  });

  it("are read by the statement in proportion to its hits, not to the collection", async ({ expect }) => {
    const filler = Array.from(
      { length: 600 },
      (_, i) => `第${i}段：普通的文字记录，讲述一座城市里平常的一天。`,
    );
    const small = [
      "雷电将军守护着稻妻，这一段讲述当地居民流传已久的传说与风俗。",
      "鸣神大社位于影向山顶，这一段讲述当地居民流传已久的传说与风俗。",
    ];
    const name = await seededCollection("families-big", 50, [
      { name: "long.md", content: `# 城市\n\n${filler.join("\n\n")}` },
      { name: "small.md", content: `# 稻妻\n\n${small.join("\n\n")}` },
    ]);
    let rowsRead = 0;
    const counting = new D1KeywordIndex({
      prepare: (sql: string) => {
        const st = env.DB.prepare(sql);
        return {
          bind: (...args: unknown[]) => ({
            all: async () => {
              const res = await st.bind(...args).all();
              rowsRead += res.meta.rows_read;
              return res;
            },
          }),
        };
      },
    } as unknown as D1Database);
    const found = await counting.searchTwoStage({
      ...filterOf(name),
      text: "雷电将军",
      limit: 10,
      parentTypes: PARENT_TYPES,
      parents: 3,
      above: 20_000,
      families: { of: 10, maxTokens: 100 },
    });
    expect(found?.hits.length).toBe(1);
    // Its one family is the small document's two passages; the other document's 600 are rows
    // the statement has no reason to visit.
    expect([...(found?.families?.values() ?? [])].map((f) => f.count)).toEqual([2]);
    expect(rowsRead).toBeLessThan(600);
  });

  it("give the pipeline the items reading the families gives", async ({ expect }) => {
    const name = await seeded();
    // The same index with the families it brings dropped: parent expansion reads them.
    const reading: KeywordIndex = {
      search: (q) => index.search(q),
      frequencies: (q) => index.frequencies(q),
      searchTwoStage: async (q) => {
        const r = await index.searchTwoStage(q);
        return r ? { hits: r.hits, inside: r.inside } : null;
      },
    };
    let compared = 0;
    for (const query of ["雷电将军的故事", "影向山 神樱树 记录", "稻妻城"])
      for (const parentTokens of [20, 60, 200])
        for (const limit of [2, 5]) {
          const req = {
            query,
            filter: filterOf(name),
            options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
              limit,
              candidates: { readWholeTokens: 0 },
              expand: { parentTokens },
            }),
          };
          const brought = await retrieve({ keywords: index, store }, req);
          const read = await retrieve({ keywords: reading, store }, req);
          expect(brought).toEqual(read);
          compared += brought.items.filter((i) => i.via === "parent").length;
        }
    // Some of the compared searches merged parents.
    expect(compared).toBeGreaterThan(0);
  });
});
