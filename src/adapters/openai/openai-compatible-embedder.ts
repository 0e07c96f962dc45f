/**
 * Embedder over an OpenAI-compatible `POST {baseUrl}/embeddings` endpoint. The API has no notion
 * of queries and passages, so a model that wants an instruction before queries (bge-*-zh:
 * "为这个句子生成表示以用于检索相关文章：") gets it here as `queryPrefix`, on queries only; passages
 * are embedded as they are, so a prefix can change without re-embedding anything.
 */

import { err, ok, type Result } from "../../domain/kernel/result";
import type { Embedder, EmbeddingModel, EmbedError } from "../../domain/retrieval/ports";
import { normalize } from "../workers-ai/workers-ai-embedder";

export type OpenAiEmbedderOptions = {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly model: EmbeddingModel;
  readonly maxBatch?: number;
  /** Put before every query text (never before documents). */
  readonly queryPrefix?: string;
  readonly fetch: typeof fetch;
};

/** A query waits on one short call; a document batch may wait on a slow local model. */
const TIMEOUT_MS = { query: 10_000, document: 120_000 } as const;

export class OpenAiCompatibleEmbedder implements Embedder {
  readonly model: EmbeddingModel;
  readonly maxBatch: number;
  readonly #options: OpenAiEmbedderOptions;
  readonly #fetch: typeof fetch;

  constructor(options: OpenAiEmbedderOptions) {
    this.#options = options;
    // workerd throws "Illegal invocation" when its fetch is called as a method of another object.
    const f = options.fetch;
    this.#fetch = (input, init) => f(input, init);
    this.model = options.model;
    this.maxBatch = options.maxBatch ?? 64;
  }

  async embed(
    texts: readonly string[],
    purpose: "query" | "document" = "document",
  ): Promise<Result<number[][], EmbedError>> {
    const prefix = purpose === "query" ? (this.#options.queryPrefix ?? "") : "";
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.maxBatch) {
      const batch = texts.slice(i, i + this.maxBatch).map((t) => prefix + t);
      let res: Response;
      try {
        res = await this.#fetch(`${this.#options.baseUrl.replace(/\/+$/, "")}/embeddings`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(this.#options.apiKey ? { authorization: `Bearer ${this.#options.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: this.model.id, input: batch }),
          signal: AbortSignal.timeout(TIMEOUT_MS[purpose]),
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
