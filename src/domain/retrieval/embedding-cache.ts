/**
 * Embeddings are a derived cache (docs/retrieval.md#embeddings): vectors of retrieval_text keyed by
 * (model, version, content hash), so a text shared by many nodes is embedded once, an
 * unchanged text never again, and a model switch is a backfill by hash into a new version
 * (dual write) followed by one settings flip. An external index (Vectorize) is kept in sync
 * from this table and can be emptied and rebuilt from it at any time.
 */
import type { Result } from "../kernel/result";
import { ok } from "../kernel/result";
import type { NodeType } from "./context-node";
import type { Embedder, EmbeddingModel, EmbedError, VectorEntry, VectorIndex } from "./ports";

/** Node types that get embeddings: the units the pipeline ranks. */
export const EMBEDDED_NODE_TYPES: readonly NodeType[] = ["passage", "memory", "summary"];

export interface EmbeddingStore {
  /** Distinct hashes (with their text) of active embedded nodes that have no vector for `model`. */
  missing(model: EmbeddingModel, limit: number): Promise<{ hash: string; text: string }[]>;
  /** Stores vectors; an existing (model, version, hash) row is kept. */
  put(
    model: EmbeddingModel,
    rows: readonly { hash: string; vector: readonly number[] }[],
    now: number,
  ): Promise<void>;
  /** Deletes embeddings (every model) of these hashes that no node references any more. */
  collectGarbage(hashes: readonly string[]): Promise<number>;
  /** Active embedded nodes whose vector for `model` is stored but not yet in the external index. */
  unsynced(model: EmbeddingModel, limit: number): Promise<VectorEntry[]>;
  markSynced(model: EmbeddingModel, entries: readonly VectorEntry[], now: number): Promise<void>;
  /** Synced node ids whose node is gone or no longer active/embedded (to delete from the index). */
  stale(model: EmbeddingModel, limit: number): Promise<string[]>;
  forgetSynced(model: EmbeddingModel, nodeIds: readonly string[]): Promise<void>;
  /** Forgets every synced row of `model`, so the next passes upsert every vector again. */
  forgetAll(model: EmbeddingModel): Promise<void>;
  /** Counts for status output. */
  status(model: EmbeddingModel): Promise<{ embedded: number; missing: number; synced: number }>;
  /** Every model version that has vectors stored, with how many (retired ones included). */
  versions(): Promise<{ id: string; version: string; vectors: number }[]>;
  /**
   * Deletes every stored vector of one model version and its sync records (the last step of a
   * switch, docs/retrieval.md#switching-models); returns how many vectors went.
   */
  dropVersion(model: Pick<EmbeddingModel, "id" | "version">): Promise<number>;
}

export type RefreshReport = {
  readonly model: string;
  readonly embedded: number;
  readonly upserted: number;
  readonly removed: number;
  /** True when a pass found nothing left to do for this model. */
  readonly done: boolean;
};

/** Vectorize accepts at most 1,000 vectors per upsert from a Worker. */
const UPSERT_BATCH = 1000;

/**
 * One bounded pass for one model: embed up to `limit` missing hashes, then push up to
 * `limit` unsynced vectors to an external index and delete stale ones from it.
 */
export async function refreshEmbeddings(
  deps: { store: EmbeddingStore; embedder: Embedder; index: VectorIndex | null; now: () => number },
  limit: number,
): Promise<Result<RefreshReport, EmbedError>> {
  const { store, embedder, index } = deps;
  const model = embedder.model;
  const missing = await store.missing(model, limit);
  let embedded = 0;
  for (let i = 0; i < missing.length; i += embedder.maxBatch) {
    const batch = missing.slice(i, i + embedder.maxBatch);
    const vectors = await embedder.embed(
      batch.map((m) => m.text),
      "document",
    );
    if (!vectors.ok) return vectors;
    await store.put(
      model,
      batch
        .map((m, j) => ({ hash: m.hash, vector: vectors.value[j] ?? [] }))
        .filter((r) => r.vector.length > 0),
      deps.now(),
    );
    embedded += batch.length;
  }
  let upserted = 0;
  let removed = 0;
  if (index?.external) {
    const pending = await store.unsynced(model, limit);
    for (let i = 0; i < pending.length; i += UPSERT_BATCH) {
      const batch = pending.slice(i, i + UPSERT_BATCH);
      await index.upsert(batch);
      await store.markSynced(model, batch, deps.now());
      upserted += batch.length;
    }
    const stale = await store.stale(model, limit);
    if (stale.length > 0) {
      await index.remove(stale);
      await store.forgetSynced(model, stale);
      removed = stale.length;
    }
  }
  return ok({
    model: `${model.id}@${model.version}`,
    embedded,
    upserted,
    removed,
    done: missing.length < limit && upserted < limit && removed < limit,
  });
}
