/**
 * The cron's summary sweep: for yesterday (then the days before, up to `lookbackDays`), every
 * chat with stored messages and no record for that day gets its summary — at most
 * `chatsPerRun` chat-days per run. What is left waits for the next run; the (chat, day) record
 * makes a repeated run skip what is done, so many chats are covered over several runs.
 */
import { parseChatKey } from "../chat/chat-address";
import { isStored, type Settings } from "../config/settings";
import { dayBounds, daysBefore } from "../kernel/local-day";
import type { Logger } from "../kernel/logger";
import type { ChatModel } from "../model/chat-model";
import { summarizeDay } from "./daily-summary";
import type { DailySummaryStore } from "./daily-summary-store";

export type DailySummaryReport = {
  readonly days: readonly string[];
  readonly written: number;
  readonly skipped: number;
  readonly failed: number;
  /** The run stopped at its bound; the next run continues. */
  readonly more: boolean;
};

export async function runDailySummaries(
  settings: Settings,
  deps: {
    readonly store: DailySummaryStore;
    readonly model: ChatModel | null;
    readonly logger: Logger;
    readonly now: () => number;
    readonly mayCallModel?: (chatKey: string) => Promise<boolean>;
  },
  /** The run's time (the cron's scheduled time): its local day is "today". */
  asOf: number,
): Promise<DailySummaryReport> {
  const cfg = settings.summaries;
  const { timeZone } = settings.calendar;
  const days = cfg.enabled ? daysBefore(asOf, timeZone, cfg.lookbackDays) : [];
  let budget = cfg.chatsPerRun;
  let written = 0;
  let skipped = 0;
  let failed = 0;
  let more = false;
  for (const day of days) {
    const { start, end } = dayBounds(day, timeZone);
    const pending = await deps.store.pendingChats(day, start, end, budget + 1);
    if (pending.length > budget) more = true;
    for (const p of pending.slice(0, budget)) {
      budget--;
      const base = { chatKey: p.chatKey, day, dayEnd: end, at: deps.now() };
      const parsed = parseChatKey(p.chatKey);
      if (!parsed.ok || !isStored(settings, p.chatKey, parsed.value.targetType)) {
        // An unfollowed group (or a legacy key) gets no summary, and is not looked at again.
        await deps.store.record({ ...base, summary: null, skipped: "not followed", usage: null });
        skipped++;
        continue;
      }
      try {
        const messages = await deps.store.dayMessages(
          p.chatKey,
          start,
          end,
          cfg.maxMessages,
          settings.privacy.doNotRecord,
        );
        const outcome = await summarizeDay(
          { chatKey: p.chatKey, targetType: parsed.value.targetType, day, timeZone, messages },
          cfg,
          deps,
        );
        await deps.store.record({ ...base, ...outcome });
        if (outcome.summary) written++;
        else skipped++;
      } catch (e) {
        // Not recorded: the next run tries this chat-day again.
        failed++;
        deps.logger.error("daily summary failed", { chat: p.chatKey, day, error: String(e) });
      }
    }
    if (budget <= 0) break;
  }
  return { days, written, skipped, failed, more };
}
