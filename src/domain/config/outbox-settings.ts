/**
 * The `outbox` section of the behaviour settings (docs/settings.md): how often and how many of a
 * chat's buffered rows are flushed to D1.
 */
import { z } from "zod";

export const OutboxSettingsSchema = z
  .object({
    flushIntervalMs: z.number().int().min(100).max(60_000),
    flushBatchRows: z.number().int().min(1).max(500),
  })
  .strict();

export type OutboxSettings = z.infer<typeof OutboxSettingsSchema>;

export const DEFAULT_OUTBOX_SETTINGS: OutboxSettings = { flushIntervalMs: 1000, flushBatchRows: 200 };
