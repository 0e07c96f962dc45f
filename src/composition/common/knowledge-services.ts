/**
 * The knowledge base's bindings as domain dependencies: D1 stores and
 * indexes, the embedders of `knowledge.embeddings` (local, Workers AI, OpenAI-compatible),
 * Vectorize when the model names a binding that exists — else the brute-force index over
 * D1 — and the optional reranker.
 */

import { BruteForceVectorIndex } from "../../adapters/d1/brute-force-vector-index";
import { coalescingD1 } from "../../adapters/d1/coalescing-d1";
import { D1ContextStore } from "../../adapters/d1/d1-context-store";
import { D1EmbeddingStore } from "../../adapters/d1/d1-embedding-store";
import { D1KeywordIndex } from "../../adapters/d1/d1-keyword-index";
import { D1KnowledgeStore } from "../../adapters/d1/d1-knowledge-store";
import { LibraryDocumentConverter } from "../../adapters/documents/library-document-converter";
import { LocalHashEmbedder } from "../../adapters/local/local-hash-embedder";
import { consoleLogger } from "../../adapters/log/console-logger";
import { OpenAiCompatibleEmbedder } from "../../adapters/openai/openai-compatible-embedder";
import { OpenAiCompatibleReranker } from "../../adapters/openai/openai-compatible-reranker";
import { type VectorizeBinding, VectorizeIndexAdapter } from "../../adapters/vectorize/vectorize-index";
import { WorkersAiEmbedder, WorkersAiReranker } from "../../adapters/workers-ai/workers-ai-embedder";
import type { EmbeddingModelSettings } from "../../domain/config/embedding-settings";
import { DEFAULT_SETTINGS, type Settings } from "../../domain/config/settings";
import { fusionWeights } from "../../domain/knowledge/fusion-weights";
import type { ImportDeps } from "../../domain/knowledge/import-documents";
import type { KnowledgeAdmin } from "../../domain/knowledge/knowledge-admin";
import { type EmbeddingSlot, knowledgeMaintenance } from "../../domain/knowledge/knowledge-maintenance";
import type { KnowledgeAccess } from "../../domain/knowledge/knowledge-search";
import type { Removed } from "../../domain/knowledge/knowledge-store";
import { LexicalReranker } from "../../domain/retrieval/lexical-reranker";
import type { Embedder, Reranker } from "../../domain/retrieval/ports";
import type { RetrievalDeps } from "../../domain/retrieval/retrieve";

export type { EmbeddingSlot };

function isVectorize(value: unknown): value is VectorizeBinding {
  return (
    typeof value === "object" &&
    value !== null &&
    "query" in value &&
    "upsert" in value &&
    "deleteByIds" in value
  );
}

export function createEmbedder(env: Env, m: EmbeddingModelSettings): Embedder | null {
  const model = { id: m.model, version: m.version, dims: m.dims };
  switch (m.provider) {
    case "local":
      return new LocalHashEmbedder(m.dims);
    case "workers-ai":
      return env.AI ? new WorkersAiEmbedder(env.AI, model) : null;
    case "openai-compatible":
      return m.baseUrl
        ? new OpenAiCompatibleEmbedder({
            baseUrl: m.baseUrl,
            apiKey: env.EMBEDDING_API_KEY ?? "",
            model,
            ...(m.queryPrefix ? { queryPrefix: m.queryPrefix } : {}),
            fetch,
          })
        : null;
  }
}

/** The configured reranker; one whose binding or endpoint is missing falls back to the lexical one. */
export function createReranker(env: Env, r: Settings["knowledge"]["reranker"]): Reranker {
  switch (r.provider) {
    case "workers-ai":
      return env.AI ? new WorkersAiReranker(env.AI, r.model) : new LexicalReranker();
    case "openai-compatible":
      return r.baseUrl
        ? new OpenAiCompatibleReranker({
            baseUrl: r.baseUrl,
            apiKey: env.RERANKER_API_KEY ?? "",
            model: r.model,
            fetch,
            logger: consoleLogger,
            ...(r.timeoutMs ? { timeoutMs: r.timeoutMs } : {}),
          })
        : new LexicalReranker();
    case "local":
      return new LexicalReranker();
  }
}

function slot(env: Env, settings: Settings, key: string): EmbeddingSlot | null {
  const m = settings.knowledge.embeddings.models[key];
  if (!m) return null;
  const embedder = createEmbedder(env, m);
  if (!embedder) return null;
  const binding = m.vectorBinding ? (env as unknown as Record<string, unknown>)[m.vectorBinding] : undefined;
  const index = isVectorize(binding)
    ? new VectorizeIndexAdapter(binding)
    : new BruteForceVectorIndex(env.DB, embedder.model);
  return { key, embedder, index, fusionWeight: m.fusionWeight ?? 1 };
}

export function createKnowledgeServices(env: Env, settings: Settings) {
  const store = new D1KnowledgeStore(env.DB);
  const embeddings = new D1EmbeddingStore(env.DB);
  const read = settings.knowledge.embeddings.read
    ? slot(env, settings, settings.knowledge.embeddings.read)
    : null;
  const writes = settings.knowledge.embeddings.write
    .map((key) => slot(env, settings, key))
    .filter((s): s is EmbeddingSlot => s !== null);
  // A search's reads that start together (its size, keyword search and frequencies; then a
  // hit's parents and their passages) share one D1 round trip (see coalescing-d1.ts).
  const reads = coalescingD1(env.DB);
  const retrieval: RetrievalDeps = {
    keywords: new D1KeywordIndex(reads),
    store: new D1ContextStore(reads),
    vectors: read?.index ?? null,
    embedder: read?.embedder ?? null,
    vectorWeight: read ? fusionWeights(settings.knowledge).knowledge : 0,
    reranker: createReranker(env, settings.knowledge.reranker),
    logger: consoleLogger,
  };

  /** Every model written to, plus the read model (its vectors must exist too). */
  const maintained = (): EmbeddingSlot[] => {
    const all = [...writes];
    if (read && !all.some((s) => s.key === read.key)) all.push(read);
    return all;
  };

  const maintenance = knowledgeMaintenance({ store, embeddings, maintained, now: Date.now });
  const { afterRemoval, removeDocument, removeCollection, refresh } = maintenance;

  const importDeps: ImportDeps = {
    store,
    converter: new LibraryDocumentConverter(),
    now: Date.now,
    afterRemoval,
  };

  return {
    store,
    embeddings,
    retrieval,
    read,
    writes,
    maintained,
    afterRemoval,
    removeDocument,
    removeCollection,
    refresh,
    importDeps,
  };
}

export type KnowledgeServices = ReturnType<typeof createKnowledgeServices>;

/**
 * KnowledgeAccess for chat turns: the pipeline's ports follow the turn's settings (built
 * again only when the knowledge settings change).
 */
export function knowledgeAccess(env: Env): KnowledgeAccess {
  let cached: { key: string; retrieval: RetrievalDeps } | null = null;
  const store = new D1KnowledgeStore(env.DB);
  return {
    retrieval(knowledge) {
      const key = JSON.stringify([knowledge.embeddings, knowledge.reranker]);
      if (cached?.key !== key) {
        cached = {
          key,
          retrieval: createKnowledgeServices(env, { ...DEFAULT_SETTINGS, knowledge }).retrieval,
        };
      }
      return cached.retrieval;
    },
    listCollections: async () => (await store.listCollections()).map((c) => c.name),
    admin: (knowledge) => knowledgeAdmin(createKnowledgeServices(env, { ...DEFAULT_SETTINGS, knowledge })),
  };
}

/** KnowledgeAdmin over the knowledge services: reads from the store, removals as the admin API does them. */
export function knowledgeAdmin(kb: KnowledgeServices): KnowledgeAdmin {
  const count = (removed: Removed | null) => (removed ? { nodes: removed.nodeIds.length } : null);
  return {
    listCollections: () => kb.store.listCollections(),
    getCollection: (name) => kb.store.getCollection(name),
    listDocuments: (collection) => kb.store.listDocuments(collection),
    findDocument: (collection, source) => kb.store.findDocument(collection, source),
    deleteDocument: async (collection, source) => count(await kb.removeDocument(collection, source)),
    deleteCollection: async (name) => count(await kb.removeCollection(name)),
  };
}
