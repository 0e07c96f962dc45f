/**
 * A hosted cross-encoder configured as `knowledge.reranker` (provider `openai-compatible`),
 * through `POST /api/kb/search` inside workerd: its order is used when it answers, and when it
 * fails or does not answer in time the search answers exactly as without a reranker.
 */
import { afterEach, beforeEach, describe, it, vi } from "vitest";
import { standInFor } from "../support/fetch-stand-in";
import { api, search, seededCollection } from "../support/knowledge-api";

const ENDPOINT = "http://rerank.test/v1/rerank";
const mode = { now: "reverse" as "reverse" | "fail" | "silent", calls: 0 };

beforeEach(() => {
  mode.calls = 0;
  standInFor(ENDPOINT, async (init) => {
    mode.calls++;
    if (mode.now === "fail") return new Response("overloaded", { status: 503 });
    if (mode.now === "silent")
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    // A reranker that prefers the candidates the first stage ranked last.
    const { documents } = JSON.parse(String(init?.body)) as { documents: string[] };
    return Response.json({
      results: documents.map((_, index) => ({ index, relevance_score: index })).reverse(),
    });
  });
});
afterEach(() => vi.restoreAllMocks());

async function settings(reranker: Record<string, unknown> | null) {
  const knowledge = {
    search: { rerank: reranker !== null, readWholeTokens: 0, parentTokens: 0, neighbours: 0, perRoot: 0 },
    ...(reranker ? { reranker } : {}),
  };
  const res = await api("/api/settings", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ knowledge }),
  });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${await res.text()}`);
}

const RERANKER = {
  provider: "openai-compatible",
  model: "BAAI/bge-reranker-v2-m3",
  baseUrl: "http://rerank.test/v1",
  timeoutMs: 200,
};

describe("a hosted reranker", () => {
  it("reorders when it answers and changes nothing when it fails or times out", {
    timeout: 120_000,
  }, async ({ expect }) => {
    const text = Array.from({ length: 8 }, (_, i) => `第${i}段讲组件的状态${"和缓存".repeat(i)}。`).join(
      "\n\n",
    );
    const name = await seededCollection("rerank", 80, [{ name: "state.md", content: text }]);
    const ids = async () => (await search("组件的状态", [name], 5)).items.map((i) => i.citation.node_id);

    await settings(null);
    const plain = await ids();
    expect(plain.length).toBeGreaterThan(2);
    expect(mode.calls).toBe(0);

    await settings(RERANKER);
    const reranked = await ids();
    expect(mode.calls).toBe(1);
    expect(reranked).not.toEqual(plain);

    mode.now = "fail";
    expect(await ids()).toEqual(plain);
    mode.now = "silent";
    expect(await ids()).toEqual(plain);
    expect(mode.calls).toBe(3);
  });

  it("is refused without the endpoint it needs", async ({ expect }) => {
    const res = await api("/api/settings", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ knowledge: { reranker: { provider: "openai-compatible", model: "m" } } }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("baseUrl");
  });
});
