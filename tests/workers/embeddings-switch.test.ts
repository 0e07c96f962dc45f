/**
 * Embeddings as a versioned cache, exercised through the admin API inside workerd with real
 * local D1 (docs/retrieval.md#switching-models): from the hashed model to an OpenAI-compatible
 * one (a stand-in endpoint behind the Worker's own fetch), dual write, a fill interrupted by a
 * failing endpoint and resumed, a document re-imported during the fill, the read switch, the
 * old version retired, and the way back.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, it, vi } from "vitest";
import { standInFor } from "../support/fetch-stand-in";
import { api, createCollection, json, search, uniqueName, upload } from "../support/knowledge-api";

const ENDPOINT = "http://embeddings.test/v1/embeddings";
const PREFIX = "查询：";

/** The stand-in endpoint: a deterministic 8-dimension vector per text; can be made to fail. */
const endpoint = { calls: [] as string[][], failNext: 0 };

function vectorOf(text: string): number[] {
  const v = Array.from({ length: 8 }, (_, i) => ((text.codePointAt(i % text.length) ?? 1) % 17) + i + 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

beforeEach(() => {
  endpoint.calls = [];
  endpoint.failNext = 0;
  standInFor(ENDPOINT, async (init) => {
    if (endpoint.failNext > 0) {
      endpoint.failNext--;
      return new Response(JSON.stringify({ error: { message: "overloaded", type: "server_error" } }), {
        status: 503,
      });
    }
    const input_ = JSON.parse(String(init?.body)).input as string[];
    endpoint.calls.push(input_);
    return Response.json({ data: input_.map((t, index) => ({ index, embedding: vectorOf(t) })) });
  });
});
afterEach(() => vi.restoreAllMocks());

const BGE = {
  provider: "openai-compatible",
  model: "fake-bge",
  version: "1",
  dims: 8,
  baseUrl: "http://embeddings.test/v1",
  queryPrefix: PREFIX,
  fusionWeight: 1,
};

async function putEmbeddings(embeddings: Record<string, unknown>) {
  const res = await api("/api/settings", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    // readWholeTokens 0: the small collection is searched, not returned whole.
    body: JSON.stringify({
      knowledge: { search: { readWholeTokens: 0 }, embeddings: { refreshPerRun: 0, ...embeddings } },
    }),
  });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${await res.text()}`);
}

type Status = {
  models: { key: string; embedded: number; missing: number }[];
  stored: { model: string; vectors: number; inUse: boolean }[];
};
const status = () => json<Status>("/api/embeddings/status");
const missing = async (key: string) => (await status()).models.find((m) => m.key === key)?.missing;

async function rebuild(limit: number) {
  return json<{ done: boolean; reports: { model: string; embedded?: number; error?: string }[] }>(
    "/api/embeddings/rebuild",
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ limit }) },
  );
}

/** Every active passage's hash, and the hashes that have a vector of `model@version`. */
async function vectorsOf(modelId: string, version: string) {
  const nodes = await env.DB.prepare(
    "SELECT DISTINCT content_hash AS h FROM nodes WHERE status = 'active' AND node_type = 'passage'",
  ).all<{ h: string }>();
  const rows = await env.DB.prepare(
    "SELECT content_hash AS h FROM embeddings WHERE model_id = ?1 AND model_version = ?2",
  )
    .bind(modelId, version)
    .all<{ h: string }>();
  return { current: nodes.results.map((r) => r.h).sort(), stored: rows.results.map((r) => r.h).sort() };
}

const doc = (n: number, words: string) =>
  Array.from({ length: 6 }, (_, i) => `第${n}篇第${i}段：${words}${"说明".repeat(i + 1)}。`).join("\n\n");

describe("switching the embedding model", () => {
  // Many admin requests in a row: a loaded machine needs more than the default 30 s.
  it("dual write, an interrupted fill resumed, a re-import mid-fill, read switch, retire, rollback", {
    timeout: 180_000,
  }, async ({ expect }) => {
    const name = uniqueName("switch");
    await createCollection(name, { chunkSize: 60, chunkOverlap: 0 });
    await putEmbeddings({ read: "local", write: ["local"] });
    await upload(name, [
      { name: "a.md", content: doc(1, "组件切走的时候保留状态") },
      { name: "b.md", content: doc(2, "计算属性会被缓存") },
    ]);
    expect((await rebuild(100)).done).toBe(true);
    expect(await missing("local")).toBe(0);

    // 1. Dual write: the new model is maintained beside the old one; nothing of it exists yet.
    await putEmbeddings({ models: { bge: BGE }, read: "local", write: ["local", "bge"] });
    const total = await missing("bge");
    expect(total).toBeGreaterThan(6);

    // 2. The fill, interrupted: one pass stores its batch, the next fails at the endpoint.
    expect((await rebuild(3)).reports.find((r) => r.model === "fake-bge@1")?.embedded).toBe(3);
    endpoint.failNext = 1;
    const failed = await rebuild(3);
    expect(failed.done).toBe(false);
    // A failed pass names the model by its settings key.
    expect(failed.reports.find((r) => r.model === "bge")?.error).toMatch(/unavailable: HTTP 503/);
    expect(await missing("bge")).toBe((total ?? 0) - 3);

    // A document re-imported during the fill: its old texts leave, its new ones are missing.
    const replaced = await upload(name, [{ name: "a.md", content: doc(1, "标签页切换后内容还在") }]);
    expect(replaced.body.results[0]?.status).toBe("replaced");

    // Resumed until done: every current text embedded once, nothing stored for a text no node has.
    for (let pass = 0; pass < 20 && !(await rebuild(3)).done; pass++);
    expect(await missing("bge")).toBe(0);
    const sent = endpoint.calls.flat();
    expect(new Set(sent).size).toBe(sent.length);
    const bge = await vectorsOf("fake-bge", "1");
    expect(bge.stored).toEqual(bge.current);

    // 3. Read switch: searches embed the query with the prefix and fuse the new model's kNN.
    await putEmbeddings({ models: { bge: BGE }, read: "bge", write: ["local", "bge"] });
    endpoint.calls = [];
    const hits = await search("标签页切换", [name]);
    expect(hits.items.length).toBeGreaterThan(0);
    expect(endpoint.calls).toEqual([[`${PREFIX}标签页切换`]]);

    // 4–5. Stop writing the old model, then retire its vectors; a version in use is refused.
    await putEmbeddings({ models: { bge: BGE }, read: "bge", write: ["bge"] });
    const before = await status();
    expect(before.stored).toContainEqual({
      model: "local-hash@1-512",
      vectors: expect.any(Number),
      inUse: false,
    });
    expect(before.stored).toContainEqual({ model: "fake-bge@1", vectors: bge.current.length, inUse: true });
    const refused = await api("/api/embeddings/retire", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "fake-bge@1" }),
    });
    expect(refused.status).toBe(400);
    const retired = await json<{ deleted: number }>("/api/embeddings/retire", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "local-hash@1-512" }),
    });
    expect(retired.deleted).toBeGreaterThan(0);
    expect((await vectorsOf("local-hash", "1-512")).stored).toEqual([]);
    expect((await status()).stored.map((v) => v.model)).toEqual(["fake-bge@1"]);

    // Rollback: back to the hashed model, which is filled again like any new one.
    await putEmbeddings({ models: { bge: BGE }, read: "local", write: ["local"] });
    expect(await missing("local")).toBe(bge.current.length);
    for (let pass = 0; pass < 20 && !(await rebuild(100)).done; pass++);
    const local = await vectorsOf("local-hash", "1-512");
    expect(local.stored).toEqual(local.current);
    endpoint.calls = [];
    expect((await search("标签页切换", [name])).items.length).toBeGreaterThan(0);
    expect(endpoint.calls).toEqual([]);
  });

  it("retire refuses a model that is not stored, and malformed names", async ({ expect }) => {
    await putEmbeddings({ read: "local", write: ["local"] });
    for (const model of ["nothing@1", "no-version", "", "@1"]) {
      const res = await api("/api/embeddings/retire", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model }),
      });
      expect([400, 404]).toContain(res.status);
    }
  });
});
