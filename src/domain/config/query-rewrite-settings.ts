/**
 * The `queryRewrite` section of the behaviour settings: whether a follow-up question ("那它
 * 的缓存呢？") is rewritten into a standalone search query by the chat model before kb_search
 * and the automatic knowledge recall run, and the bounds of that call. With the offline model,
 * with it off, or on any failure, the deterministic context fusion is used instead.
 */
import { z } from "zod";

export const QueryRewriteSettingsSchema = z
  .object({
    /** Rewrite follow-ups through the chat model when one is configured. */
    enabled: z.boolean(),
    /** Output tokens the rewrite may use: a query, not an answer. */
    maxTokens: z.number().int().min(16).max(512),
    /** A rewrite slower than this falls back to the fusion, so a slow model never stalls a search. */
    timeoutMs: z.number().int().min(100).max(30_000),
  })
  .strict();

export type QueryRewriteSettings = z.infer<typeof QueryRewriteSettingsSchema>;

export const DEFAULT_QUERY_REWRITE_SETTINGS: QueryRewriteSettings = {
  enabled: true,
  maxTokens: 96,
  timeoutMs: 4000,
};
