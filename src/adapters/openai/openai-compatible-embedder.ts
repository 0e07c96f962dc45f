/** Embedder over an OpenAI-compatible `POST {baseUrl}/embeddings` endpoint. */

import { err, ok, type Result } from "../../domain/kernel/result";
import type { Embedder, EmbeddingModel, EmbedError } from "../../domain/retrieval/ports";
import { normalize } from "../workers-ai/workers-ai-embedder";

export type OpenAiEmbedderOptions = {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly model: EmbeddingModel;
  readonly maxBatch?: number;
  readonly fetch: typeof fetch;
};

export class OpenAiCompatibleEmbedder implements Embedder {
  readonly model: EmbeddingModel;
  readonly maxBatch: number;
  readonly #options: OpenAiEmbedderOptions;

  constructor(options: OpenAiEmbedderOptions) {
    this.#options = options;
    this.model = options.model;
    this.maxBatch = options.maxBatch ?? 64;
  }

  async embed(texts: readonly string[]): Promise<Result<number[][], EmbedError>> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.maxBatch) {
      const batch = texts.slice(i, i + this.maxBatch);
      let res: Response;
      try {
        res = await this.#options.fetch(`${this.#options.baseUrl.replace(/\/+$/, "")}/embeddings`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(this.#options.apiKey ? { authorization: `Bearer ${this.#options.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: this.model.id, input: batch }),
        });
      } catch (e) {
        return err({ kind: "unavailable", message: String(e) });
      }
      if (res.status === 429) return err({ kind: "rate-limited", message: "HTTP 429" });
      if (!res.ok) return err({ kind: "unavailable", message: `HTTP ${res.status}` });
      const body = (await res.json().catch(() => null)) as {
        data?: { index?: number; embedding?: unknown }[];
      } | null;
      const data = body?.data;
      if (!Array.isArray(data) || data.length !== batch.length)
        return err({ kind: "bad-response", message: "wrong number of embeddings" });
      const sorted = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      for (const d of sorted) {
        if (!Array.isArray(d.embedding) || d.embedding.length !== this.model.dims)
          return err({ kind: "bad-response", message: `expected ${this.model.dims} dimensions` });
        out.push(normalize(d.embedding as number[]));
      }
    }
    return ok(out);
  }
}
