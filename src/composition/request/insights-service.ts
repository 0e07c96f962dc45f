/**
 * The read-only views of the admin faces: the audit log, model usage and today's spend
 * against the caps, the counts and sizes of what is stored, and the overview's operational
 * status (recent errors, retention).
 */
import { D1AdminStats } from "../../adapters/d1/d1-admin-stats";
import { type AuditFilter, D1AuditLog } from "../../adapters/d1/d1-audit-log";
import { D1OpsLog } from "../../adapters/d1/d1-ops-log";
import type { SettingsSource } from "../../domain/config/settings-source";
import { lastDays } from "../../domain/kernel/local-day";
import { spendDay } from "../../domain/spend/spend-day";
import { spendReport } from "../../domain/spend/spend-report";
import { spendLedger } from "../common/spend-reader";
import { type RetentionStatus, retentionStatus } from "./retention-status";

export type { Stats, Usage, UsageRow } from "../../adapters/d1/d1-admin-stats";
export type { AuditFilter, AuditRow } from "../../adapters/d1/d1-audit-log";
export type { SpendReport } from "../../domain/spend/spend-report";
export type { RetentionStatus };

export type RecentError = { at: number; source: string; message: string };

export function insightsService(env: Env, settings: SettingsSource) {
  const stats = new D1AdminStats(env.DB);
  const ops = new D1OpsLog(env.DB);
  /** The last `days` local days of `calendar.timeZone`, today included: the days "昨天" counts in. */
  const window = async (days: number, now: number) =>
    lastDays(now, (await settings.current()).calendar.timeZone, days);
  return {
    window,
    audit: (filter: AuditFilter) => new D1AuditLog(env.DB).list(filter),
    /** Model usage of the last `days` local days (today included), of one chat or all. */
    usage: async (days: number, chat?: string, now: number = Date.now()) =>
      stats.usage(await window(days, now), chat),
    /** Counts, and messages per local day of the last `days` days (today included). */
    stats: async (days: number, now: number = Date.now()) => stats.stats(await window(days, now)),

    /** Today's spend (in `calendar.timeZone`) against the caps: the whole bot and its top chats. */
    async spendToday(chat?: string, now: number = Date.now()) {
      const current = await settings.current();
      const { timeZone } = current.calendar;
      const day = spendDay(now, timeZone);
      return spendReport(current.spend, timeZone, day, await spendLedger(env).today(day, 20, chat));
    },

    /** Unhandled request errors and failed model calls, newest first. */
    async recentErrors(limit: number): Promise<RecentError[]> {
      const [requests, models] = await Promise.all([ops.recent("error", limit), stats.failedCalls(limit)]);
      return [...requests.map(({ at, source, message }) => ({ at, source, message })), ...models]
        .sort((a, b) => b.at - a.at)
        .slice(0, limit);
    },

    retention: async (): Promise<RetentionStatus> => retentionStatus(env, await settings.current()),
  };
}

export type InsightsService = ReturnType<typeof insightsService>;
