/** The cron's message-log retention, and its record in the ops log for the overview. */
import { applyRetention, type RetentionReport } from "../../adapters/d1/retention";
import type { Settings } from "../../domain/config/settings";
import { opsLog } from "../common/edge-stores";

export type { RetentionReport };

export const retentionJob = (env: Env, settings: Settings, now: number) =>
  applyRetention(env.DB, settings, now);

export async function recordRetention(env: Env, at: number, report: RetentionReport): Promise<void> {
  try {
    await opsLog(env).record("retention", {
      at,
      source: "cron",
      message: `deleted ${report.deleted} message(s)${report.complete ? "" : ", more left for the next run"}`,
      detail: { ...report },
    });
  } catch (e) {
    console.error(JSON.stringify({ msg: "retention status write failed", error: String(e) }));
  }
}
