/**
 * The read model as the restatement check's vectors (src/domain/memory/restatement-vectors.ts):
 * its embedder for new statements, the D1 embeddings cache for stored items — only when the
 * settings give that model a measured `restatementCosine`
 * (docs/decisions/0460-restatements-judged-by-the-read-model.md).
 */
import { D1EmbeddingStore } from "../../adapters/d1/d1-embedding-store";
import type { KnowledgeSettings } from "../../domain/config/knowledge-settings";
import type { RestatementVectors } from "../../domain/memory/restatement-vectors";
import type { Embedder } from "../../domain/retrieval/ports";

export function restatementVectors(
  db: D1Database,
  embedder: Embedder | null | undefined,
  knowledge: KnowledgeSettings,
): RestatementVectors | null {
  const key = knowledge.embeddings.read;
  const threshold = key ? knowledge.embeddings.models[key]?.restatementCosine : undefined;
  if (threshold === undefined || !embedder) return null;
  const cache = new D1EmbeddingStore(db);
  return {
    threshold,
    maxBatch: embedder.maxBatch,
    async embed(texts) {
      const embedded = await embedder.embed(texts, "document");
      return embedded.ok && embedded.value.length === texts.length ? embedded.value : null;
    },
    stored: (nodeIds) => cache.vectorsOfNodes(embedder.model, nodeIds),
  };
}
