/** The cron's OneBot backfill over D1, reading history from the OneBot HTTP API when ONEBOT_API_BASE is set. */
import { D1BackfillProgress } from "../../adapters/d1/d1-backfill-progress";
import { consoleLogger } from "../../adapters/log/console-logger";
import { OneBotHistoryClient } from "../../adapters/onebot/onebot-history-client";
import type { GroupHistorySource } from "../../domain/backfill/group-history-source";
import { type BackfillReport, runBackfill } from "../../domain/backfill/run-backfill";
import type { Settings } from "../../domain/config/settings";
import { d1MessageLog } from "../shared/message-log-writer";
import type { RuntimeConfig } from "../shared/runtime-config";

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
    log: d1MessageLog(env),
    logger: consoleLogger,
    now: () => Date.now(),
  });
}
