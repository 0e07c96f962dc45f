/**
 * The `spend` section of the behaviour settings: daily token caps for model calls (turns and
 * dreaming), per chat and over all chats. `null` turns a cap off. The day is midnight to
 * midnight in `calendar.timeZone` (calendar-settings.ts). Checked before every model call against the day's `model_usage`.
 */
import { z } from "zod";

/** Upper bound of a cap: far above any plausible day, low enough to stay an exact integer sum. */
const MAX_CAP = 10_000_000_000;

const Cap = z.number().int().min(1).max(MAX_CAP).nullable();

export const SpendSettingsSchema = z
  .object({
    /** Prompt + completion tokens one chat may spend per day (its turns and its dreaming). */
    chatDailyTokens: Cap,
    /** Prompt + completion tokens all chats together may spend per day. */
    globalDailyTokens: Cap,
  })
  .strict();

export type SpendSettings = z.infer<typeof SpendSettingsSchema>;

/**
 * Defaults: a busy group at about 40 turns of 10k tokens a day stays under its cap, and the
 * whole bot under about ten such chats' worth.
 */
export const DEFAULT_SPEND_SETTINGS: SpendSettings = {
  chatDailyTokens: 400_000,
  globalDailyTokens: 4_000_000,
};
