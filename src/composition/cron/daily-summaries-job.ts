/**
 * The cron's daily-summary sweep: each chat-day read from the chat's own object, recorded in D1,
 * with the chat model the turns use (caps included).
 */
import { consoleLogger } from "../../adapters/log/console-logger";
import type { Settings } from "../../domain/config/settings";
import type { ChatModel } from "../../domain/model/chat-model";
import { dailySpendGate } from "../../domain/spend/spend-gate";
import { type DailySummaryReport, runDailySummaries } from "../../domain/summary/run-daily-summaries";
import { createChatModel } from "../common/model-and-outbound";
import { readRuntimeConfig } from "../common/runtime-config";
import { spendLedger } from "../common/spend-reader";
import { objectDaySummaries } from "./object-day-summaries";

export function dailySummaryJob(
  env: Env,
  settings: Settings,
  asOf: number,
  model: ChatModel = createChatModel(env, readRuntimeConfig(env)),
): Promise<DailySummaryReport> {
  const clock = { now: () => Date.now() };
  // The same daily caps as turns and dreaming; the cron has no outbox, so nothing is unflushed.
  const mayCallModel = async (chatKey: string) =>
    (
      await dailySpendGate({
        chatKey,
        caps: settings.spend,
        timeZone: settings.calendar.timeZone,
        ledger: spendLedger(env),
        clock,
        unflushed: () => 0,
      }).check([])
    ).allowed;
  return runDailySummaries(
    settings,
    { store: objectDaySummaries(env), model, logger: consoleLogger, now: clock.now, mayCallModel },
    asOf,
  );
}
