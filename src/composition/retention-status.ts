/**
 * Retention as the overview shows it: each cron run is recorded in the ops log, and the
 * oldest message still kept is read per chat type next to the retention the settings give it.
 */
import { D1AdminStats } from "../adapters/d1/d1-admin-stats";
import type { RetentionReport } from "../adapters/d1/retention";
import { retentionDays, type Settings } from "../domain/config/settings";
import { opsLog } from "./admin-services";

export type RetentionStatus = {
  readonly lastRun: { at: number; deleted: number; complete: boolean } | null;
  readonly byType: readonly { targetType: string; days: number; oldest: number | null; messages: number }[];
};

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

export async function retentionStatus(env: Env, settings: Settings): Promise<RetentionStatus> {
  const [last] = await opsLog(env).recent("retention", 1);
  const results = await new D1AdminStats(env.DB).keptMessages();
  return {
    lastRun: last
      ? { at: last.at, deleted: Number(last.detail.deleted ?? 0), complete: last.detail.complete === true }
      : null,
    byType: results.map((r) => ({ ...r, days: retentionDays(settings, r.targetType, null) })),
  };
}
