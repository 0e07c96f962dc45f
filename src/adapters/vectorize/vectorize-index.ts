/**
 * VectorIndex over a Vectorize binding (one index per embedding model version). Honours
 * the platform's contract: topK ≤ 100 when neither values nor full metadata are returned
 * (this adapter never asks for either), ≤ 1,000 vectors per upsert, filters on the indexed
 * metadata `scope_type, scope_id, collection, node_type` (create those metadata indexes
 * before the first insert), filter JSON under 2 KiB. Mutations are eventually consistent,
 * so results can name deleted, moved or archived nodes: the pipeline re-checks every id
 * against D1 before use.
 */
import type { Candidate, IndexFilter, VectorEntry, VectorIndex } from "../../domain/retrieval/ports";
import { parseScopeKey } from "../../domain/retrieval/scope-key";

/** The part of the Vectorize binding this adapter uses (both the V1 and V2 bindings have it). */
export type VectorizeBinding = {
  query(
    vector: number[],
    options: VectorizeQueryOptions,
  ): Promise<{ matches: { id: string; score: number }[] }>;
  upsert(vectors: VectorizeVector[]): Promise<unknown>;
  deleteByIds(ids: string[]): Promise<unknown>;
};

export const VECTORIZE_LIMITS = {
  topK: 100,
  upsertBatch: 1000,
  deleteBatch: 100,
  filterBytes: 2048,
} as const;

export class VectorizeIndexAdapter implements VectorIndex {
  readonly external = true;
  readonly #index: VectorizeBinding;
  constructor(index: VectorizeBinding) {
    this.#index = index;
  }

  async query(q: IndexFilter & { embedding: readonly number[]; limit: number }): Promise<Candidate[]> {
    const scopes = q.scopes.map(parseScopeKey).filter((s) => s !== null);
    if (scopes.length === 0 || q.limit <= 0) return [];
    const filter: VectorizeVectorMetadataFilter = {
      scope_type: { $in: [...new Set(scopes.map((s) => s.type))] },
      scope_id: { $in: [...new Set(scopes.map((s) => s.id))] },
      node_type: { $in: [...q.nodeTypes] },
      ...(q.collections ? { collection: { $in: [...q.collections] } } : {}),
    };
    // A filter over the size limit loses its id list; the D1 re-check still enforces scope.
    if (JSON.stringify(filter).length >= VECTORIZE_LIMITS.filterBytes) delete filter.scope_id;
    const result = await this.#index.query([...q.embedding], {
      topK: Math.min(q.limit, VECTORIZE_LIMITS.topK),
      returnValues: false,
      returnMetadata: "none",
      filter,
    });
    return result.matches.map((m) => ({ nodeId: m.id, score: m.score }));
  }

  async upsert(entries: readonly VectorEntry[]): Promise<void> {
    for (let i = 0; i < entries.length; i += VECTORIZE_LIMITS.upsertBatch) {
      await this.#index.upsert(
        entries.slice(i, i + VECTORIZE_LIMITS.upsertBatch).map((e) => ({
          id: e.nodeId,
          values: [...e.vector],
          metadata: { ...e.metadata },
        })),
      );
    }
  }

  async remove(nodeIds: readonly string[]): Promise<void> {
    for (let i = 0; i < nodeIds.length; i += VECTORIZE_LIMITS.deleteBatch) {
      await this.#index.deleteByIds(nodeIds.slice(i, i + VECTORIZE_LIMITS.deleteBatch));
    }
  }
}
