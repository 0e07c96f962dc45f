/**
 * The `backfill` section of the behaviour settings (docs/sessions.md#onebot-backfill): how much of a
 * newly followed OneBot group's history the cron fetches with `get_group_msg_history`, and
 * how much of it per run.
 */
import { z } from "zod";

export const BackfillSettingsSchema = z
  .object({
    enabled: z.boolean(),
    /** Messages stored per group at most; the backfill of that group is then done. */
    maxMessages: z.number().int().min(0).max(100_000),
    /** Pages fetched per group at most (empty and failed pages count). */
    maxPages: z.number().int().min(1).max(10_000),
    /** Messages asked for per page (`count`). */
    pageSize: z.number().int().min(1).max(200),
    /** Pages fetched per cron run over all groups, so one run stays within its limits. */
    pagesPerRun: z.number().int().min(1).max(500),
  })
  .strict();

export type BackfillSettings = z.infer<typeof BackfillSettingsSchema>;

export const DEFAULT_BACKFILL_SETTINGS: BackfillSettings = {
  enabled: true,
  maxMessages: 2000,
  maxPages: 100,
  pageSize: 50,
  pagesPerRun: 20,
};
