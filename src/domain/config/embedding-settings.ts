/**
 * The `knowledge.embeddings` settings (docs/retrieval.md): the embedding models, the one searches
 * read and the ones every new node is written with.
 */
import { z } from "zod";

export const EmbeddingModelSchema = z
  .object({
    provider: z.enum(["local", "workers-ai", "openai-compatible"]),
    /** Provider model id, e.g. @cf/baai/bge-m3; `local-hash` for the local embedder. */
    model: z.string().min(1).max(200),
    /** Bump when vectors of the same model stop being comparable. */
    version: z.string().min(1).max(40),
    dims: z.number().int().min(8).max(1536),
    /** OpenAI-compatible endpoint (the key is the EMBEDDING_API_KEY secret). */
    baseUrl: z.string().url().optional(),
    /**
     * Instruction put before queries (never passages) for models trained with one, e.g. bge-*-zh's
     * "为这个句子生成表示以用于检索相关文章：" (OpenAI-compatible endpoints only; bge-m3 needs none).
     */
    queryPrefix: z.string().max(200).optional(),
    /** Weight of this model's kNN ranking in rank fusion with bm25 (0 = keep vectors, do not search them). */
    fusionWeight: z.number().min(0).max(5).optional(),
    /**
     * The weight knowledge search and knowledge auto-recall fuse this model at, when it differs
     * from memory recall's `fusionWeight`; unset = `fusionWeight`
     * (docs/decisions/0261-local-model-fused-for-memory-not-knowledge.md).
     */
    knowledgeFusionWeight: z.number().min(0).max(5).optional(),
    /**
     * The weight history search fuses this model's order of its matches at (a rerank of what the
     * log's words found); unset = 0, history stays with the words
     * (docs/decisions/0490-history-matches-reranked-by-the-read-model.md).
     */
    historyFusionWeight: z.number().min(0).max(5).optional(),
    /**
     * The cosine of this model at or above which a new memory statement restates an item of its
     * scope and merges into it; unset = this model's vectors take no part and restatements are
     * judged by words (docs/decisions/0460-restatements-judged-by-the-read-model.md).
     */
    restatementCosine: z.number().min(0.5).max(1).optional(),
    /** Name of the Vectorize binding holding this model's index; none = brute force over D1. */
    vectorBinding: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .optional(),
  })
  .strict();

export type EmbeddingModelSettings = z.infer<typeof EmbeddingModelSchema>;

export const EmbeddingSettingsSchema = z
  .object({
    models: z.record(z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/), EmbeddingModelSchema),
    /** The model searches use; null = FTS only. Switching models = backfill, then flip this. */
    read: z.string().nullable(),
    /** Models every new node is embedded with (dual write during a switch). */
    write: z.array(z.string()),
    /** Hashes embedded right after an import; the rest by `embeddings rebuild` or the cron. */
    refreshPerRun: z.number().int().min(0).max(100_000),
  })
  .strict();

export type EmbeddingSettings = z.infer<typeof EmbeddingSettingsSchema>;

export const DEFAULT_EMBEDDING_SETTINGS: EmbeddingSettings = {
  models: {
    // Fused at weight 0: on every dev set the hashed n-gram vectors lowered bm25's ranking
    // (docs/decisions/0002-local-embedder-fused-at-weight-zero.md); they are still computed,
    // cached and searchable for experiments.
    local: { provider: "local", model: "local-hash", version: "1-512", dims: 512, fusionWeight: 0 },
    "bge-m3": {
      provider: "workers-ai",
      model: "@cf/baai/bge-m3",
      version: "1",
      dims: 1024,
      fusionWeight: 1,
      vectorBinding: "KNOWLEDGE_VECTORS",
    },
  },
  read: "local",
  write: ["local"],
  refreshPerRun: 2000,
};
