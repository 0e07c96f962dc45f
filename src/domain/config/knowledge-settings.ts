/**
 * The `knowledge` section of the behaviour settings (docs/retrieval.md): which collections a chat
 * reads, how documents are chunked, the `kb_search` and automatic recall profiles
 * (retrieval-profile-settings.ts), the embedding models (embedding-settings.ts) and the reranker.
 */
import { z } from "zod";
import { DEFAULT_EMBEDDING_SETTINGS, EmbeddingSettingsSchema } from "./embedding-settings";
import { RetrievalProfileSchema } from "./retrieval-profile-settings";

export const KnowledgeSettingsSchema = z
  .object({
    /** Collections every chat may read ("*" = all). */
    collections: z.array(z.string().min(1).max(64)),
    /** Per-chat override: chat key → readable collections. */
    chatCollections: z.record(z.string(), z.array(z.string().min(1).max(64))),
    /** Defaults of new collections. */
    chunkSize: z.number().int().min(50).max(8000),
    chunkOverlap: z.number().int().min(0).max(2000),
    /** kb_search. */
    search: RetrievalProfileSchema,
    /** Automatic recall before every reply: off by default, stricter and smaller than kb_search. */
    autoRecall: RetrievalProfileSchema.extend({ enabled: z.boolean() }).strict(),
    embeddings: EmbeddingSettingsSchema,
    /**
     * `local` = the deterministic lexical reranker; `workers-ai` = a cross-encoder (needs the AI
     * binding); `openai-compatible` = a hosted cross-encoder's `POST {baseUrl}/rerank` (the key is
     * the RERANKER_API_KEY secret), given up after `timeoutMs`.
     */
    reranker: z
      .object({
        provider: z.enum(["local", "workers-ai", "openai-compatible"]),
        model: z.string().min(1),
        baseUrl: z.string().url().optional(),
        timeoutMs: z.number().int().min(100).max(60_000).optional(),
      })
      .strict()
      .refine((r) => r.provider !== "openai-compatible" || r.baseUrl !== undefined, {
        path: ["baseUrl"],
        message: "is required for the openai-compatible reranker",
      }),
  })
  .strict()
  .superRefine((k, ctx) => {
    const known = new Set(Object.keys(k.embeddings.models));
    if (k.embeddings.read !== null && !known.has(k.embeddings.read))
      ctx.addIssue({
        code: "custom",
        path: ["embeddings", "read"],
        message: `names no model in knowledge.embeddings.models`,
      });
    k.embeddings.write.forEach((w, i) => {
      if (!known.has(w))
        ctx.addIssue({
          code: "custom",
          path: ["embeddings", "write", i],
          message: "names no model in knowledge.embeddings.models",
        });
    });
  });

export type KnowledgeSettings = z.infer<typeof KnowledgeSettingsSchema>;

export const DEFAULT_KNOWLEDGE_SETTINGS: KnowledgeSettings = {
  collections: ["*"],
  chatCollections: {},
  chunkSize: 800,
  chunkOverlap: 80,
  search: {
    limit: 6,
    tokenBudget: 1500,
    candidates: 50,
    minCoverage: 0,
    relevanceFloor: 0.6,
    hintSharpness: 0,
    headingWeight: 3,
    documentEvidence: 0,
    // Off: a small collection read whole came back unranked and whole for any question, so
    // nothing was never found in it (docs/decisions/0260-small-collections-are-ranked.md).
    readWholeTokens: 0,
    // Off: forced on over the Vue docs it lost top-1 questions on every set written apart,
    // and at 100k passages its wider window was most of kb_search's time
    // (docs/decisions/0025-two-stage-search-off-by-default.md).
    twoStageAbove: 0,
    neighbours: 1,
    expandHits: 2,
    parentTokens: 800,
    perRoot: 3,
    rerank: false,
  },
  autoRecall: {
    enabled: false,
    limit: 2,
    tokenBudget: 400,
    candidates: 30,
    minCoverage: 0.5,
    relevanceFloor: 0.6,
    hintSharpness: 0,
    headingWeight: 3,
    documentEvidence: 0,
    readWholeTokens: 0,
    twoStageAbove: 0,
    neighbours: 0,
    expandHits: 0,
    parentTokens: 0,
    perRoot: 1,
    rerank: false,
  },
  embeddings: DEFAULT_EMBEDDING_SETTINGS,
  reranker: { provider: "local", model: "@cf/baai/bge-reranker-base" },
};
