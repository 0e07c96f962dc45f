/**
 * Retention as the overview shows it: the last cron run (recorded in the ops log by
 * cron/retention-job.ts) and the oldest message still kept per chat type, next to the
 * retention the settings give it.
 */
import { D1AdminStats } from "../../adapters/d1/d1-admin-stats";
import { retentionDays, type Settings } from "../../domain/config/settings";
import { opsLog } from "../common/edge-stores";

export type RetentionStatus = {
  readonly lastRun: { at: number; deleted: number; complete: boolean } | null;
  readonly byType: readonly { targetType: string; days: number; oldest: number | null; messages: number }[];
};

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
