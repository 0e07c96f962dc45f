/**
 * An embedding is the vector of a memory item's or summary's text: a form of its words. It leaves
 * storage when no node holds that text any more — an admin's forget, an erasure for a credential,
 * an edit that changes the text — not at the next sweep (docs/decisions/1040-embeddings-leave-with-their-text.md).
 * Archiving keeps it (the item can be restored), a text another node still holds keeps it, and a
 * knowledge document replaced with the same passages keeps theirs, so nothing is embedded twice.
 *
 * Own file: it counts embedding rows of shared texts, which every test of a file shares.
 */
import { env } from "cloudflare:workers";
import { D1EmbeddingStore } from "@src/adapters/d1/d1-embedding-store";
import { describe, it } from "vitest";
import { adminApi } from "../support/admin-api";
import { newMemory, nodeColumns, seedMemory, uid } from "../support/memory";
import { summary } from "../support/private-material";

const MODELS = [
  { id: "local-hash", version: "1", dims: 4 },
  { id: "@cf/baai/bge-m3", version: "1", dims: 4 },
];

/** Every model's vector of these nodes' texts, as the embeddings refresh stores them. */
async function embedded(nodeIds: readonly string[]): Promise<string[]> {
  const rows = await Promise.all(nodeIds.map((id) => nodeColumns(id, "content_hash")));
  const hashes = rows.map((r) => String(r?.content_hash));
  const store = new D1EmbeddingStore(env.DB);
  for (const model of MODELS)
    await store.put(
      model,
      hashes.map((hash) => ({ hash, vector: [0.1, 0.2, 0.3, 0.4] })),
      Date.now(),
    );
  return hashes;
}

/** How many vectors each of `hashes` has stored, over every model. */
async function vectorCounts(hashes: readonly string[]): Promise<number[]> {
  const { results } = await env.DB.prepare(
    "SELECT content_hash AS hash, count(*) AS n FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?1)) GROUP BY content_hash",
  )
    .bind(JSON.stringify(hashes))
    .all<{ hash: string; n: number }>();
  return hashes.map((h) => results.find((r) => r.hash === h)?.n ?? 0);
}

describe("an embedding leaves storage with the last text it was made from", () => {
  it("goes with a forgotten item, an erased summary and an edited text; stays while archived or shared", async ({
    expect,
  }) => {
    const tag = uid();
    const said = `我每天晚上去江边散步 ${tag}`;
    const [forgotten, sharer, edited, archived] = await seedMemory([
      newMemory(`person:A${tag}`, said, { kind: "fact" }),
      newMemory(`person:B${tag}`, said, { kind: "fact" }),
      newMemory(`person:A${tag}`, `喜欢喝茉莉花茶 ${tag}`, { kind: "preference" }),
      newMemory(`person:A${tag}`, `周末常去图书馆 ${tag}`, { kind: "fact" }),
    ]);
    const daily = await summary(
      `qq:group:G${tag}`,
      `今天大家约了周六聚餐，小王说：压缩包打开要输 酸辣土豆丝 别外传 ${tag}`,
      "public",
    );
    const ids = [forgotten, sharer, edited, archived, daily] as string[];
    const [shared, , editedHash, archivedHash, summaryHash] = (await embedded(ids)) as [
      string,
      string,
      string,
      string,
      string,
    ];
    expect(await vectorCounts([shared, editedHash, archivedHash, summaryHash])).toEqual([2, 2, 2, 2]);

    // The same words in another person's item: their vector stays until that item goes too.
    expect(
      (await adminApi(`/memory/${forgotten}/forget`, { method: "POST", body: { confirm: forgotten } }))
        .status,
    ).toBe(200);
    expect(await vectorCounts([shared])).toEqual([2]);
    expect(
      (await adminApi(`/memory/${sharer}/forget`, { method: "POST", body: { confirm: sharer } })).status,
    ).toBe(200);
    expect(await vectorCounts([shared])).toEqual([0]);

    const edit = await adminApi(`/memory/${edited}`, {
      method: "PATCH",
      body: { text: `喜欢喝普洱 ${tag}` },
    });
    expect(edit.status).toBe(200);
    expect(await vectorCounts([editedHash])).toEqual([0]);

    expect((await adminApi(`/memory/${archived}/archive`, { method: "POST" })).status).toBe(200);
    expect(await vectorCounts([archivedHash])).toEqual([2]);

    const erased = await adminApi("/memory/credentials/erase", { method: "POST", body: { ids: [daily] } });
    expect(erased.status).toBe(200);
    expect(await vectorCounts([summaryHash])).toEqual([0]);
  });
});
