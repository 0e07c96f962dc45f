/**
 * The cron's door to the composition root: the settings of the run (read once) and each job of
 * the hourly sweep over its bindings — message-log retention and its record, the embeddings
 * refresh, the backfills (conversation trees, wide-character counts, OneBot history), the
 * OneBot group titles, the daily summaries, the expiry of tasks, and the notices to the owner
 * still waiting.
 */

import { consoleLogger } from "../../adapters/log/console-logger";
import type { Settings } from "../../domain/config/settings";
import { createKnowledgeServices } from "../common/knowledge-services";
import { ownerNotices } from "../common/owner-notices";
import { readRuntimeConfig } from "../common/runtime-config";
import { loadSettings } from "../settings/settings-loader";
import { conversationBackfillJob } from "./conversation-backfill-job";
import { dailySummaryJob } from "./daily-summaries-job";
import { groupTitlesJob, oneBotGroupInfo } from "./group-titles-job";
import { backfillJob, backfillWithNotices, oneBotHistorySource } from "./onebot-backfill-job";
import { recordRetention, retentionJob } from "./retention-job";
import { taskExpiryJob } from "./task-expiry-job";
import { wideCharsBackfillJob } from "./wide-chars-backfill-job";

export function cronServices(env: Env) {
  const config = readRuntimeConfig(env);
  const notices = ownerNotices(env, () => loadSettings(env), consoleLogger);
  return {
    settings: () => loadSettings(env),
    retention: (settings: Settings, now: number) => retentionJob(env, settings, now),
    recordRetention: (at: number, report: Awaited<ReturnType<typeof retentionJob>>) =>
      recordRetention(env, at, report),
    /** New nodes of every scope get their vectors here when an import or a write left some missing. */
    refreshEmbeddings: (settings: Settings) =>
      createKnowledgeServices(env, settings).refresh(settings.knowledge.embeddings.refreshPerRun),
    conversationBackfill: () => conversationBackfillJob(env),
    wideCharsBackfill: () => wideCharsBackfillJob(env),
    oneBotBackfill: (settings: Settings) =>
      backfillWithNotices(() => backfillJob(env, settings, oneBotHistorySource(config)), notices),
    groupTitles: () => groupTitlesJob(env, oneBotGroupInfo(config)),
    dailySummaries: (settings: Settings, asOf: number) => dailySummaryJob(env, settings, asOf),
    /** Tasks past their due time or lifetime are archived as expired, audited. */
    taskExpiry: (settings: Settings, now: number) => taskExpiryJob(env, settings, now),
    /** Notices that waited (the interval, or no private chat of an admin known yet) go out now. */
    tellOwner: async () => ({ chats: await notices.tellOwner() }),
  };
}

export type CronServices = ReturnType<typeof cronServices>;
