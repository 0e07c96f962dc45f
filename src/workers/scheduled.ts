/**
 * The cron trigger: message-log retention, a bounded embeddings refresh, the conversation
 * sessions of older messages, the wide-character counts of older knowledge rows, the OneBot
 * backfill, the daily summaries.
 */
import { applyRetention } from "../adapters/d1/retention";
import { backfillJob, oneBotHistorySource } from "../composition/backfill";
import { conversationBackfillJob } from "../composition/conversation-backfill";
import { dailySummaryJob } from "../composition/daily-summaries";
import { groupTitlesJob, oneBotGroupInfo } from "../composition/group-titles";
import { createKnowledgeServices } from "../composition/knowledge-services";
import { recordRetention } from "../composition/retention-status";
import { readRuntimeConfig } from "../composition/runtime-config";
import { loadSettings } from "../composition/settings-source";
import { wideCharsBackfillJob } from "../composition/wide-chars-backfill";

export async function runScheduled(env: Env, scheduledTime: number): Promise<void> {
  const settings = await loadSettings(env);
  const report = await applyRetention(env.DB, settings, scheduledTime);
  console.log(JSON.stringify({ msg: "retention", ...report }));
  await recordRetention(env, scheduledTime, report);
  // New nodes of every scope get their vectors here when an import or a write left some
  // missing (embedding is a cache: failures only delay vector search, FTS works meanwhile).
  try {
    const reports = await createKnowledgeServices(env, settings).refresh(
      settings.knowledge.embeddings.refreshPerRun,
    );
    console.log(JSON.stringify({ msg: "embeddings refresh", reports: JSON.stringify(reports) }));
  } catch (e) {
    console.error(JSON.stringify({ msg: "embeddings refresh failed", error: String(e) }));
  }
  try {
    console.log(JSON.stringify({ msg: "conversation backfill", ...(await conversationBackfillJob(env)) }));
  } catch (e) {
    console.error(JSON.stringify({ msg: "conversation backfill failed", error: String(e) }));
  }
  try {
    console.log(JSON.stringify({ msg: "wide characters backfill", ...(await wideCharsBackfillJob(env)) }));
  } catch (e) {
    console.error(JSON.stringify({ msg: "wide characters backfill failed", error: String(e) }));
  }
  // Backfill first, so a day it filled in is summarized in this same run.
  try {
    const source = oneBotHistorySource(readRuntimeConfig(env));
    console.log(JSON.stringify({ msg: "onebot backfill", ...(await backfillJob(env, settings, source)) }));
  } catch (e) {
    console.error(JSON.stringify({ msg: "onebot backfill failed", error: String(e) }));
  }
  try {
    const titles = await groupTitlesJob(env, oneBotGroupInfo(readRuntimeConfig(env)));
    console.log(JSON.stringify({ msg: "onebot group titles", ...titles }));
  } catch (e) {
    console.error(JSON.stringify({ msg: "onebot group titles failed", error: String(e) }));
  }
  try {
    console.log(
      JSON.stringify({ msg: "daily summaries", ...(await dailySummaryJob(env, settings, scheduledTime)) }),
    );
  } catch (e) {
    console.error(JSON.stringify({ msg: "daily summaries failed", error: String(e) }));
  }
}
