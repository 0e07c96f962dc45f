/**
 * The `memory` section of the behaviour settings (docs/memory.md): recall, the mandatory block,
 * when dreaming runs, and decay (memory-decay-settings.ts).
 */
import { z } from "zod";
import { DEFAULT_MEMORY_DECAY_SETTINGS, MemoryDecaySettingsSchema } from "./memory-decay-settings";

const MemoryRetrievalSchema = z
  .object({
    /**
     * Soft scope (docs/memory.md#soft-scope): recall draws from every scope's public, portable items as well
     * as the turn's own scopes. Off = hard scope (the cascade only). Run `npm run akasha --
     * sensitivity-backfill` before turning it on over data written before sensitivity tags.
     */
    softScope: z.boolean(),
    /** Memory items recalled automatically per turn (0 = no automatic memory recall). */
    recallLimit: z.number().int().min(0).max(50),
    /** Most items `memory_search` returns. */
    searchLimit: z.number().int().min(1).max(50),
    /** Prompt budget of the automatic memory recall, in estimated tokens. */
    recallTokenBudget: z.number().int().min(0).max(20_000),
    /** Recency half-life of the importance × recency score. */
    recencyHalfLifeDays: z.number().min(1).max(3650),
  })
  .strict();

const MemoryMandatorySchema = z
  .object({
    /** Items at or above this importance (global and the turn's scopes) are in every prompt. */
    minImportance: z.number().min(0).max(1),
    maxItems: z.number().int().min(0).max(50),
    /** Budget of the mandatory block: persona, pinned items, latest summary, recent turns. */
    tokenBudget: z.number().int().min(128).max(100_000),
  })
  .strict();

const MemoryDreamingSchema = z
  .object({
    enabled: z.boolean(),
    /**
     * Consolidate once this many turns are waiting… (in a group or channel, never before the
     * oldest is ten minutes old: docs/decisions/0610-dreams-wait-for-the-privacy-window.md)
     */
    afterTurns: z.number().int().min(1).max(500),
    /** …or once the chat has been quiet this long with any turn waiting. */
    idleMinutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60),
    /** Most turns read by one run; the rest wait for the next. */
    maxTurnsPerRun: z.number().int().min(1).max(500),
  })
  .strict();

const MemoryProfilesSchema = z
  .object({
    /**
     * With a chat model, a person profile read in the items' own words is rewritten by the model
     * after the turn (docs/decisions/0430-profiles-rewritten-by-the-model-off-the-turn.md); off,
     * profiles stay extractive and cost no model call.
     */
    rewriteWithModel: z.boolean(),
  })
  .strict();

export const MemorySettingsSchema = z
  .object({
    retrieval: MemoryRetrievalSchema,
    mandatory: MemoryMandatorySchema,
    dreaming: MemoryDreamingSchema,
    decay: MemoryDecaySettingsSchema,
    profiles: MemoryProfilesSchema,
  })
  .strict();

export type MemorySettings = z.infer<typeof MemorySettingsSchema>;

export const DEFAULT_MEMORY_SETTINGS: MemorySettings = {
  retrieval: {
    softScope: false,
    recallLimit: 4,
    searchLimit: 8,
    recallTokenBudget: 600,
    recencyHalfLifeDays: 30,
  },
  mandatory: { minImportance: 0.8, maxItems: 6, tokenBudget: 2000 },
  dreaming: { enabled: true, afterTurns: 20, idleMinutes: 30, maxTurnsPerRun: 60 },
  decay: DEFAULT_MEMORY_DECAY_SETTINGS,
  profiles: { rewriteWithModel: true },
};
