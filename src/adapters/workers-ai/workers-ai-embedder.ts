/**
 * Embedder over Workers AI `@cf/baai/bge-m3` (multilingual, 1024 dimensions, at most 100
 * texts per call) and the optional reranker `@cf/baai/bge-reranker-base` (input
 * `{query, contexts: [{text}]}`, output `{response: [{id, score}]}` with `id` the index
 * into `contexts`). Failures come back as values; callers fall back to FTS.
 */

import { err, ok, type Result } from "../../domain/kernel/result";
import type { Embedder, EmbeddingModel, EmbedError, Reranker } from "../../domain/retrieval/ports";

type AiRunner = { run(model: string, input: unknown, options?: unknown): Promise<unknown> };

export const BGE_M3: EmbeddingModel = { id: "@cf/baai/bge-m3", version: "1", dims: 1024 };

export function normalize(v: readonly number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

function failure(e: unknown): EmbedError {
  const message = e instanceof Error ? e.message : String(e);
  return { kind: /3040|429|capacity|rate/i.test(message) ? "rate-limited" : "unavailable", message };
}

export class WorkersAiEmbedder implements Embedder {
  readonly model: EmbeddingModel;
  readonly maxBatch = 100;
  readonly #ai: AiRunner;

  constructor(ai: AiRunner, model: EmbeddingModel = BGE_M3) {
    this.#ai = ai;
    this.model = model;
  }

  async embed(texts: readonly string[]): Promise<Result<number[][], EmbedError>> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.maxBatch) {
      const batch = texts.slice(i, i + this.maxBatch);
      let response: unknown;
      try {
        response = await this.#ai.run(this.model.id, { text: batch, truncate_inputs: true });
      } catch (e) {
        return err(failure(e));
      }
      const data = (response as { data?: unknown }).data;
      if (
        !Array.isArray(data) ||
        data.length !== batch.length ||
        !data.every((v) => Array.isArray(v) && v.length === this.model.dims)
      ) {
        return err({
          kind: "bad-response",
          message: `expected ${batch.length} vectors of ${this.model.dims} dimensions`,
        });
      }
      out.push(...(data as number[][]).map(normalize));
    }
    return ok(out);
  }
}

export class WorkersAiReranker implements Reranker {
  readonly #ai: AiRunner;
  readonly #model: string;
  constructor(ai: AiRunner, model = "@cf/baai/bge-reranker-base") {
    this.#ai = ai;
    this.#model = model;
  }

  async rerank(query: string, texts: readonly string[]): Promise<Result<number[], EmbedError>> {
    if (texts.length === 0) return ok([]);
    let response: unknown;
    try {
      response = await this.#ai.run(this.#model, {
        query,
        contexts: texts.map((text) => ({ text })),
        top_k: texts.length,
      });
    } catch (e) {
      return err(failure(e));
    }
    const list = (response as { response?: unknown }).response;
    if (!Array.isArray(list)) return err({ kind: "bad-response", message: "no response list" });
    const scores = new Array<number>(texts.length).fill(0);
    for (const entry of list as { id?: unknown; score?: unknown }[]) {
      if (
        typeof entry.id === "number" &&
        typeof entry.score === "number" &&
        entry.id >= 0 &&
        entry.id < texts.length
      ) {
        scores[entry.id] = entry.score;
      }
    }
    return ok(scores);
  }
}
