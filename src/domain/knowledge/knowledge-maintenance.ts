/**
 * What keeps the knowledge base's derived data in step with its documents: after a removal,
 * the vectors of every maintained model and the embeddings nothing references any more go
 * too; a refresh embeds what is missing, one bounded pass per maintained model.
 */
import { type EmbeddingStore, type RefreshReport, refreshEmbeddings } from "../retrieval/embedding-cache";
import type { Embedder, VectorIndex } from "../retrieval/ports";
import type { KnowledgeStore, Removed } from "./knowledge-store";

/** One configured embedding model with the vector index its vectors live in. */
export type EmbeddingSlot = {
  readonly key: string;
  readonly embedder: Embedder;
  readonly index: VectorIndex;
  readonly fusionWeight: number;
};

export type KnowledgeMaintenanceDeps = {
  readonly store: Pick<KnowledgeStore, "deleteDocument" | "deleteCollection">;
  readonly embeddings: EmbeddingStore;
  /** Every model written to, plus the read model (its vectors must exist too). */
  readonly maintained: () => readonly EmbeddingSlot[];
  readonly now: () => number;
};

export type RefreshOutcome = RefreshReport | { model: string; error: string };

export type KnowledgeMaintenance = {
  /** Drops the removed nodes' vectors from external indexes, then unreferenced embeddings. */
  afterRemoval(removed: Removed): Promise<void>;
  /**
   * The one removal path (admin API and `kb_manage`): the store drops the nodes, FTS rows and
   * edges, then vectors and unreferenced embeddings follow. Null when nothing had that name.
   */
  removeDocument(collection: string, source: string): Promise<Removed | null>;
  removeCollection(name: string): Promise<Removed | null>;
  /** One bounded pass per maintained model (after imports, from the cron, `embeddings rebuild`). */
  refresh(limit: number): Promise<RefreshOutcome[]>;
};

export function knowledgeMaintenance(deps: KnowledgeMaintenanceDeps): KnowledgeMaintenance {
  const afterRemoval = async (removed: Removed): Promise<void> => {
    for (const s of deps.maintained()) {
      if (s.index.external) {
        await s.index.remove(removed.nodeIds);
        await deps.embeddings.forgetSynced(s.embedder.model, removed.nodeIds);
      }
    }
    await deps.embeddings.collectGarbage(removed.hashes);
  };
  return {
    afterRemoval,
    async removeDocument(collection, source) {
      const removed = await deps.store.deleteDocument(collection, source);
      if (removed) await afterRemoval(removed);
      return removed;
    },
    async removeCollection(name) {
      const removed = await deps.store.deleteCollection(name);
      if (removed) await afterRemoval(removed);
      return removed;
    },
    async refresh(limit) {
      const reports: RefreshOutcome[] = [];
      for (const s of deps.maintained()) {
        const r = await refreshEmbeddings(
          { store: deps.embeddings, embedder: s.embedder, index: s.index, now: deps.now },
          limit,
        );
        reports.push(r.ok ? r.value : { model: s.key, error: `${r.error.kind}: ${r.error.message}` });
      }
      return reports;
    },
  };
}
