/**
 * The cron trigger: message-log retention, a bounded embeddings refresh, the conversation
 * sessions of older messages, the wide-character counts of older knowledge rows, the OneBot
 * backfill, the group titles, the daily summaries, the expiry of tasks, the notices to the owner — each through the cron's services
 * (composition/cron/cron-services.ts). A job's failure is logged and does not stop the others.
 */
import { cronServices } from "../composition/cron/cron-services";

export async function runScheduled(env: Env, scheduledTime: number): Promise<void> {
  const cron = cronServices(env);
  const settings = await cron.settings();
  const report = await cron.retention(settings, scheduledTime);
  console.log(JSON.stringify({ msg: "retention", ...report }));
  await cron.recordRetention(scheduledTime, report);
  // Embedding is a cache: failures only delay vector search, FTS works meanwhile.
  await step("embeddings refresh", async () => ({
    reports: JSON.stringify(await cron.refreshEmbeddings(settings)),
  }));
  await step("conversation backfill", () => cron.conversationBackfill());
  await step("wide characters backfill", () => cron.wideCharsBackfill());
  // Backfill first, so a day it filled in is summarized in this same run.
  await step("onebot backfill", () => cron.oneBotBackfill(settings));
  await step("onebot group titles", () => cron.groupTitles());
  await step("daily summaries", () => cron.dailySummaries(settings, scheduledTime));
  await step("task expiry", () => cron.taskExpiry(settings, scheduledTime));
  // Last, so that what this sweep raised is told in the same run when the interval allows.
  await step("owner notices", () => cron.tellOwner());
}

/** Runs one job and logs its report, or its failure without stopping the sweep. */
async function step(msg: string, job: () => Promise<object>): Promise<void> {
  try {
    console.log(JSON.stringify({ msg, ...(await job()) }));
  } catch (e) {
    console.error(JSON.stringify({ msg: `${msg} failed`, error: String(e) }));
  }
}
