/**
 * The `summaries` section of the behaviour settings (docs/memory.md#daily-summaries): the cron
 * writes one summary node per stored chat and local day. The day boundary is midnight in
 * `calendar.timeZone` (calendar-settings.ts), so "yesterday" means the chat's yesterday, not UTC's.
 */
import { z } from "zod";

export const SummarySettingsSchema = z
  .object({
    enabled: z.boolean(),
    /** Chat-days summarized per cron run at most; the rest wait for the next run. */
    chatsPerRun: z.number().int().min(1).max(500),
    /** Days back the cron looks for chat-days still without a summary (1 = yesterday only). */
    lookbackDays: z.number().int().min(1).max(14),
    /** A day with fewer stored messages gets no summary. */
    minMessages: z.number().int().min(1).max(1000),
    /** Messages of one day read at most (the newest are kept when a day has more). */
    maxMessages: z.number().int().min(10).max(5000),
    /** Messages quoted by the offline (extractive) summary. */
    extractiveMessages: z.number().int().min(1).max(20),
    /** Longest summary text, in characters. */
    maxChars: z.number().int().min(100).max(4000),
    /** Use the chat model when one is configured; off = extractive only. */
    useModel: z.boolean(),
  })
  .strict();

export type SummarySettings = z.infer<typeof SummarySettingsSchema>;

export const DEFAULT_SUMMARY_SETTINGS: SummarySettings = {
  enabled: true,
  chatsPerRun: 20,
  lookbackDays: 2,
  minMessages: 3,
  maxMessages: 400,
  extractiveMessages: 4,
  maxChars: 600,
  useModel: true,
};
