/**
 * Vectors for the restatement check (docs/memory.md#write-time-merge): with them a restatement
 * in other words ("喜欢爬山" / "爱去爬山") merges, not only a near-verbatim one. One embedding
 * model gives both sides: the new statements are embedded as documents, the stored items' vectors
 * come from the embeddings cache of the same model. A model merges by meaning only when its
 * cosine threshold was measured (decision 0460); without one, or when the model fails, the check
 * is the lexical one alone — a write never waits on, or fails for, the model.
 *
 * Privacy: only texts already cleared for storage are embedded, and stored vectors are read only
 * for items the writer's gated listing returned (merge.ts `ScopeItems`), never by scope.
 */
import type { Logger } from "../kernel/logger";

export interface RestatementVectors {
  /** The cosine at or above which two statements of this model say the same thing. */
  readonly threshold: number;
  /** Most texts one `embed` call accepts. */
  readonly maxBatch: number;
  /** One unit vector per text, in order, embedded as documents; null when the model failed. */
  embed(texts: readonly string[]): Promise<(readonly number[])[] | null>;
  /** The stored vectors of these items, by node id; an item not embedded yet is absent. */
  stored(nodeIds: readonly string[]): Promise<ReadonlyMap<string, readonly number[]>>;
}

type Vector = readonly number[];

/**
 * One write's (or dreaming run's) vectors: each text embedded at most once, in as few calls as
 * the model allows; a failure leaves the rest of the write lexical.
 */
export class VectorMemo {
  readonly #vectors: RestatementVectors | null;
  readonly #logger: Logger | undefined;
  readonly #byText = new Map<string, Vector | null>();

  constructor(vectors: RestatementVectors | null, logger?: Logger) {
    this.#vectors = vectors;
    this.#logger = logger;
  }

  /** The model's threshold, or null when vectors take no part. */
  get threshold(): number | null {
    return this.#vectors?.threshold ?? null;
  }

  /** Embeds the texts not embedded yet, in batches. */
  async prepare(texts: readonly string[]): Promise<void> {
    const v = this.#vectors;
    if (!v) return;
    const todo = [...new Set(texts)].filter((t) => !this.#byText.has(t));
    for (let i = 0; i < todo.length; i += Math.max(1, v.maxBatch)) {
      const batch = todo.slice(i, i + Math.max(1, v.maxBatch));
      const vectors = await this.#attempt(() => v.embed(batch), "embedding a statement");
      for (const [j, t] of batch.entries()) this.#byText.set(t, vectors?.[j] ?? null);
    }
  }

  /** The text's vector (embedded now if it was not prepared), or null. */
  async of(text: string): Promise<Vector | null> {
    if (!this.#byText.has(text)) await this.prepare([text]);
    return this.#byText.get(text) ?? null;
  }

  /** The stored vectors of these items; none when vectors take no part or the read failed. */
  async stored(nodeIds: readonly string[]): Promise<ReadonlyMap<string, Vector>> {
    const v = this.#vectors;
    if (!v || nodeIds.length === 0) return new Map();
    return (await this.#attempt(() => v.stored(nodeIds), "reading stored vectors")) ?? new Map();
  }

  async #attempt<T>(run: () => Promise<T | null>, what: string): Promise<T | null> {
    try {
      const out = await run();
      if (out === null) this.#logger?.warn(`${what} failed; restatements are judged by words`, {});
      return out;
    } catch (e) {
      this.#logger?.warn(`${what} failed; restatements are judged by words`, { error: String(e) });
      return null;
    }
  }
}
