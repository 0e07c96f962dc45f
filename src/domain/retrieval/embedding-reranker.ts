/**
 * The read embedding model as a reranker: each candidate scored by the cosine of its vector and
 * the question's (the embedder's vectors are unit length, so the dot product). Nothing is
 * stored: the texts are embedded when the search runs and forgotten with it, so a message that
 * is later forgotten or recalled leaves no vector behind. History search uses it
 * (docs/decisions/0490-history-matches-reranked-by-the-read-model.md).
 */
import { ok, type Result } from "../kernel/result";
import type { Embedder, EmbedError, Reranker } from "./ports";

/**
 * How long a rerank may take before the search goes on in the words' order. A history search
 * runs inside a turn; an embedder's own document timeout (two minutes for a slow local model)
 * is for imports, not for a reply someone is waiting on.
 */
const RERANK_TIMEOUT_MS = 5000;

export type EmbeddingRerankerOptions = {
  /** Resolves after `ms` (the runtime's timer, injected); absent = wait on the embedder alone. */
  readonly after?: (ms: number) => Promise<void>;
  readonly timeoutMs?: number;
};

export class EmbeddingReranker implements Reranker {
  readonly #embedder: Embedder;
  readonly #after: ((ms: number) => Promise<void>) | undefined;
  readonly #timeoutMs: number;
  constructor(embedder: Embedder, { after, timeoutMs = RERANK_TIMEOUT_MS }: EmbeddingRerankerOptions = {}) {
    this.#embedder = embedder;
    this.#after = after;
    this.#timeoutMs = timeoutMs;
  }

  async rerank(query: string, texts: readonly string[]): Promise<Result<number[], EmbedError>> {
    if (texts.length === 0) return ok([]);
    if (!this.#after) return this.#scores(query, texts);
    const late = this.#after(this.#timeoutMs).then(
      (): Result<number[], EmbedError> => ({
        ok: false,
        error: { kind: "unavailable", message: `no answer in ${this.#timeoutMs} ms` },
      }),
    );
    return Promise.race([this.#scores(query, texts), late]);
  }

  async #scores(query: string, texts: readonly string[]): Promise<Result<number[], EmbedError>> {
    const asked = await this.#embedder.embed([query], "query");
    if (!asked.ok) return asked;
    const [q] = asked.value;
    if (!q) return { ok: false, error: { kind: "bad-response", message: "no vector for the question" } };
    const scores: number[] = [];
    const batch = Math.max(1, this.#embedder.maxBatch);
    for (let i = 0; i < texts.length; i += batch) {
      const part = texts.slice(i, i + batch);
      const vectors = await this.#embedder.embed(part, "document");
      if (!vectors.ok) return vectors;
      if (vectors.value.length !== part.length)
        return { ok: false, error: { kind: "bad-response", message: "one vector per text expected" } };
      for (const v of vectors.value) scores.push(dot(q, v));
    }
    return ok(scores);
  }
}

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}
