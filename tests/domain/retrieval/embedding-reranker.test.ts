import { ok } from "@src/domain/kernel/result";
import { EmbeddingReranker } from "@src/domain/retrieval/embedding-reranker";
import type { Embedder } from "@src/domain/retrieval/ports";
import { describe, it } from "vitest";

/** Unit vectors by topic: 0 = food, 1 = travel, 2 = anything else; records every call. */
function topicEmbedder(maxBatch = 100) {
  const calls: { texts: readonly string[]; purpose: string }[] = [];
  const topic = (t: string) => (/饭|菜|鱼/.test(t) ? 0 : /旅|海|山/.test(t) ? 1 : 2);
  const embedder: Embedder = {
    model: { id: "topics", version: "1", dims: 3 },
    maxBatch,
    async embed(texts, purpose) {
      calls.push({ texts, purpose });
      return ok(texts.map((t) => [0, 1, 2].map((d) => (d === topic(t) ? 1 : 0))));
    },
  };
  return { embedder, calls };
}

describe("the embedding model as a reranker", () => {
  it("scores each text by its similarity to the question, in input order", async ({ expect }) => {
    const { embedder, calls } = topicEmbedder();
    const scores = await new EmbeddingReranker(embedder).rerank("上次做的那道菜", ["去海边", "蒸鱼", "开会"]);
    expect(scores).toEqual(ok([0, 1, 0]));
    expect(calls[0]).toEqual({ texts: ["上次做的那道菜"], purpose: "query" });
    expect(calls.slice(1).every((c) => c.purpose === "document")).toBe(true);
  });

  it("embeds the texts in batches the model accepts", async ({ expect }) => {
    const { embedder, calls } = topicEmbedder(2);
    const texts = ["蒸鱼", "爬山", "开会", "炒菜", "看海"];
    const scores = await new EmbeddingReranker(embedder).rerank("旅行", texts);
    expect(scores).toEqual(ok([0, 1, 0, 0, 1]));
    expect(calls.slice(1).map((c) => c.texts.length)).toEqual([2, 2, 1]);
  });

  it("passes the model's failure on, so the search keeps the words' order", async ({ expect }) => {
    const down: Embedder = {
      model: { id: "down", version: "1", dims: 3 },
      maxBatch: 10,
      embed: async () => ({ ok: false, error: { kind: "unavailable", message: "503" } }),
    };
    const result = await new EmbeddingReranker(down).rerank("问题", ["一", "二"]);
    expect(result).toEqual({ ok: false, error: { kind: "unavailable", message: "503" } });
  });

  it("refuses an answer with fewer vectors than texts instead of scoring the wrong ones", async ({
    expect,
  }) => {
    const short: Embedder = {
      model: { id: "short", version: "1", dims: 1 },
      maxBatch: 10,
      embed: async (texts, purpose) => ok(purpose === "query" ? [[1]] : texts.slice(1).map(() => [1])),
    };
    const result = await new EmbeddingReranker(short).rerank("问题", ["一", "二"]);
    expect(result.ok).toBe(false);
  });

  it("gives up on a model that does not answer in time, so the search goes on", async ({ expect }) => {
    const silent: Embedder = {
      model: { id: "silent", version: "1", dims: 3 },
      maxBatch: 10,
      embed: () => new Promise(() => {}),
    };
    let waited = 0;
    const after = async (ms: number) => {
      waited = ms;
    };
    const result = await new EmbeddingReranker(silent, { after, timeoutMs: 20 }).rerank("问题", ["一"]);
    expect(result).toEqual({ ok: false, error: { kind: "unavailable", message: "no answer in 20 ms" } });
    expect(waited).toBe(20);
  });

  it("asks nothing of the model when there is nothing to rerank", async ({ expect }) => {
    const { embedder, calls } = topicEmbedder();
    expect(await new EmbeddingReranker(embedder).rerank("问题", [])).toEqual(ok([]));
    expect(calls).toEqual([]);
  });
});
