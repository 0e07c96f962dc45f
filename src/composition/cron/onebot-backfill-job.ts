/** The cron's OneBot backfill over D1, reading history from the OneBot HTTP API when ONEBOT_API_BASE is set. */
import { D1BackfillProgress } from "../../adapters/d1/d1-backfill-progress";
import { consoleLogger } from "../../adapters/log/console-logger";
import { OneBotHistoryClient } from "../../adapters/onebot/onebot-history-client";
import type { GroupHistorySource } from "../../domain/backfill/group-history-source";
import { type BackfillReport, runBackfill } from "../../domain/backfill/run-backfill";
import type { Settings } from "../../domain/config/settings";
import type { OwnerNotices } from "../../domain/notices/notice-book";
import { chatLogWriter } from "../common/chat-log-writer";
import type { RuntimeConfig } from "../common/runtime-config";

/** No OneBot API configured: nothing to read history from. */
export function oneBotHistorySource(config: RuntimeConfig): GroupHistorySource | null {
  if (!config.onebot.apiBase) return null;
  return new OneBotHistoryClient({
    apiBase: config.onebot.apiBase,
    ...(config.onebot.accessToken ? { accessToken: config.onebot.accessToken } : {}),
    fetch: (input, init) => fetch(input, init),
  });
}

export function backfillJob(
  env: Env,
  settings: Settings,
  source: GroupHistorySource | null,
): Promise<BackfillReport> {
  return runBackfill(settings, {
    source,
    progress: new D1BackfillProgress(env.DB),
    // Into each group's own log (its object), and D1 while the log moves.
    log: chatLogWriter(env),
    logger: consoleLogger,
    now: () => Date.now(),
  });
}

/**
 * The backfill run, and a notice to the owner for each group whose page failed in it, or for
 * the run when it threw (the failure's kind only: its message may hold a URL or a reply body).
 */
export async function backfillWithNotices(
  run: () => Promise<BackfillReport>,
  notices: Pick<OwnerNotices, "raise">,
): Promise<BackfillReport> {
  let report: BackfillReport;
  try {
    report = await run();
  } catch (e) {
    await notices.raise({ kind: "backfill-failed", chatKey: null, cause: "threw" });
    throw e;
  }
  for (const f of report.failed)
    await notices.raise({ kind: "backfill-failed", chatKey: f.chatKey, cause: f.cause });
  return report;
}
