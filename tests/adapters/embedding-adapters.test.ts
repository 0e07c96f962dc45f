import { LocalHashEmbedder } from "@src/adapters/local/local-hash-embedder";
import { OpenAiCompatibleEmbedder } from "@src/adapters/openai/openai-compatible-embedder";
import { VectorizeIndexAdapter } from "@src/adapters/vectorize/vectorize-index";
import { WorkersAiEmbedder, WorkersAiReranker } from "@src/adapters/workers-ai/workers-ai-embedder";
import type { ScopeKey } from "@src/domain/retrieval/scope-key";
import { describe, it } from "vitest";
import { FakeVectorize } from "../fakes/fake-vectorize";

/** Workers AI as documented: bge-m3 takes `text` ≤ 100 strings → {shape, data}; the reranker {response: [{id, score}]}. */
class FakeAi {
  calls: { model: string; input: unknown }[] = [];
  async run(model: string, input: unknown): Promise<unknown> {
    this.calls.push({ model, input });
    if (model === "@cf/baai/bge-m3") {
      const text = (input as { text: string[] }).text;
      if (text.length > 100) throw new Error("AiError: too many inputs (max 100)");
      return {
        shape: [text.length, 1024],
        data: text.map((t) => Array.from({ length: 1024 }, (_, i) => (i === t.length % 1024 ? 3 : 0))),
      };
    }
    if (model === "@cf/baai/bge-reranker-base") {
      const contexts = (input as { contexts: { text: string }[] }).contexts;
      return { response: contexts.map((c, id) => ({ id, score: c.text.length / 100 })).reverse() };
    }
    throw new Error(`unknown model ${model}`);
  }
}

describe("embedding adapters", () => {
  it("Workers AI bge-m3: batches of at most 100, unit vectors in input order", async ({ expect }) => {
    const ai = new FakeAi();
    const texts = Array.from({ length: 250 }, (_, i) => "x".repeat(i + 1));
    const result = await new WorkersAiEmbedder(ai).embed(texts);
    expect(ai.calls.map((c) => (c.input as { text: string[] }).text.length)).toEqual([100, 100, 50]);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value).toHaveLength(250);
    expect(result.value[4]?.[5]).toBe(1);
  });

  it("Workers AI failures are values, never throws", async ({ expect }) => {
    const ai = { run: async () => Promise.reject(new Error("3040: Capacity temporarily exceeded")) };
    expect(await new WorkersAiEmbedder(ai).embed(["a"])).toMatchObject({
      ok: false,
      error: { kind: "rate-limited" },
    });
    const wrong = { run: async () => ({ data: [[1, 2]] }) };
    expect(await new WorkersAiEmbedder(wrong).embed(["a"])).toMatchObject({
      ok: false,
      error: { kind: "bad-response" },
    });
  });

  it("the reranker maps response ids back to input order", async ({ expect }) => {
    const result = await new WorkersAiReranker(new FakeAi()).rerank("q", ["aa", "a", "aaaa"]);
    expect(result).toEqual({ ok: true, value: [0.02, 0.01, 0.04] });
  });

  it("OpenAI-compatible embeddings are reordered by index and checked for dimensions", async ({ expect }) => {
    const fetch = (async (_url: string, init: RequestInit) => {
      const input = JSON.parse(String(init.body)).input as string[];
      const data = input.map((_, i) => ({ index: i, embedding: [i + 1, 0, 0] })).reverse();
      return new Response(JSON.stringify({ data }), { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const embedder = new OpenAiCompatibleEmbedder({
      baseUrl: "https://llm.test/v1",
      apiKey: "k",
      model: { id: "m", version: "1", dims: 3 },
      fetch,
    });
    expect(await embedder.embed(["a", "b"])).toEqual({
      ok: true,
      value: [
        [1, 0, 0],
        [1, 0, 0],
      ],
    });
    const wrongDims = new OpenAiCompatibleEmbedder({
      baseUrl: "https://llm.test/v1",
      apiKey: "k",
      model: { id: "m", version: "1", dims: 4 },
      fetch,
    });
    expect(await wrongDims.embed(["a"])).toMatchObject({ ok: false, error: { kind: "bad-response" } });
  });

  it("OpenAI-compatible: the query prefix goes before queries only, never before documents", async ({
    expect,
  }) => {
    const sent: string[][] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const input = JSON.parse(String(init.body)).input as string[];
      sent.push(input);
      return new Response(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: [1, 0] })) }));
    }) as unknown as typeof globalThis.fetch;
    const prefix = "为这个句子生成表示以用于检索相关文章：";
    const embedder = new OpenAiCompatibleEmbedder({
      baseUrl: "http://127.0.0.1:1/v1/",
      apiKey: "",
      model: { id: "bge-small-zh-v1.5", version: "1", dims: 2 },
      queryPrefix: prefix,
      fetch,
    });
    await embedder.embed(["切走的时候保留状态"], "query");
    await embedder.embed(["切走的时候保留状态", "第二段"], "document");
    await embedder.embed(["无目的的默认"]);
    expect(sent).toEqual([
      [`${prefix}切走的时候保留状态`],
      ["切走的时候保留状态", "第二段"],
      ["无目的的默认"],
    ]);
  });

  it("OpenAI-compatible: an endpoint that cannot be reached or refuses is a value, never a throw", async ({
    expect,
  }) => {
    const model = { id: "m", version: "1", dims: 2 };
    const refused = (async () => {
      throw new TypeError("fetch failed: connect ECONNREFUSED");
    }) as unknown as typeof globalThis.fetch;
    expect(
      await new OpenAiCompatibleEmbedder({ baseUrl: "http://x/v1", apiKey: "", model, fetch: refused }).embed(
        ["a"],
        "query",
      ),
    ).toMatchObject({ ok: false, error: { kind: "unavailable" } });
    const badRequest = (async () =>
      new Response(JSON.stringify({ error: { message: "bad", type: "invalid_request_error" } }), {
        status: 400,
      })) as unknown as typeof globalThis.fetch;
    expect(
      await new OpenAiCompatibleEmbedder({
        baseUrl: "http://x/v1",
        apiKey: "",
        model,
        fetch: badRequest,
      }).embed(["a"]),
    ).toMatchObject({ ok: false, error: { kind: "unavailable", message: "HTTP 400" } });
  });

  it("OpenAI-compatible: workerd's own fetch is called as a function, not as a method", async ({
    expect,
  }) => {
    const embedder = new OpenAiCompatibleEmbedder({
      baseUrl: "http://127.0.0.1:1/v1",
      apiKey: "",
      model: { id: "m", version: "1", dims: 2 },
      fetch: globalThis.fetch,
    });
    const result = await embedder.embed(["a"], "query");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).not.toMatch(/illegal invocation/i);
  });

  it("the local embedder is deterministic and puts Chinese texts sharing words close together", ({
    expect,
  }) => {
    const e = new LocalHashEmbedder(256);
    const a = e.embedOne("阿贝多是西风骑士团的首席炼金术士");
    expect(e.embedOne("阿贝多是西风骑士团的首席炼金术士")).toEqual(a);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * (y[i] ?? 0), 0);
    expect(dot(a, a)).toBeCloseTo(1, 6);
    expect(dot(a, e.embedOne("首席炼金术士阿贝多"))).toBeGreaterThan(
      dot(a, e.embedOne("今天的天气很好适合出门")),
    );
  });

  it("Vectorize queries stay within topK 100 and filter by scope, type and collection", async ({
    expect,
  }) => {
    const index = new FakeVectorize(3);
    const adapter = new VectorizeIndexAdapter(index);
    await adapter.upsert([
      {
        nodeId: "n1",
        contentHash: "h",
        vector: [1, 0, 0],
        metadata: {
          scope_type: "collection",
          scope_id: "a",
          collection: "a",
          node_type: "passage",
          sensitivity: "public",
          portable: true,
        },
      },
      {
        nodeId: "n2",
        contentHash: "h",
        vector: [1, 0, 0],
        metadata: {
          scope_type: "collection",
          scope_id: "b",
          collection: "b",
          node_type: "passage",
          sensitivity: "public",
          portable: true,
        },
      },
    ]);
    expect(
      await adapter.query({
        scopes: ["collection:a" as ScopeKey],
        nodeTypes: ["passage"],
        embedding: [1, 0, 0],
        limit: 500,
      }),
    ).toEqual([]);
    index.settle();
    const hits = await adapter.query({
      scopes: ["collection:a" as ScopeKey],
      nodeTypes: ["passage"],
      collections: ["a"],
      embedding: [1, 0, 0],
      limit: 500,
    });
    expect(hits.map((h) => h.nodeId)).toEqual(["n1"]);
    expect(index.queries.at(-1)?.topK).toBe(100);
  });
});
