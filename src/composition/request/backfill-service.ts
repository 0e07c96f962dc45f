/**
 * The OneBot backfill as admins see it: whether it can run, every followed group's progress
 * (pending when the cron has not reached it yet) and the records of groups no longer followed,
 * and the restart of a failed group, audited with the acting admin and the face it came through.
 */
import { D1AuditLog } from "../../adapters/d1/d1-audit-log";
import { D1BackfillProgress } from "../../adapters/d1/d1-backfill-progress";
import { restartBackfill } from "../../domain/backfill/restart-backfill";
import { followedOneBotGroups } from "../../domain/backfill/run-backfill";
import type { SettingsSource } from "../../domain/config/settings-source";
import type { AdminRequest } from "./admin-request";

export function backfillService(env: Env, who: AdminRequest, settings: SettingsSource) {
  const store = new D1BackfillProgress(env.DB);
  return {
    async overview() {
      const current = await settings.current();
      const [records, followed] = await Promise.all([store.list(), followedOneBotGroups(current, store)]);
      const byChat = new Map(records.map((r) => [r.chatKey, r] as const));
      const following = new Set(followed);
      const groups = [
        ...followed.map((chatKey) => ({
          followed: true,
          ...(byChat.get(chatKey) ?? { chatKey, status: "pending" as const }),
        })),
        ...records.filter((r) => !following.has(r.chatKey)).map((r) => ({ followed: false, ...r })),
      ];
      return {
        configured: Boolean(who.config.onebot.apiBase) && current.backfill.enabled,
        bounds: current.backfill,
        groups,
      };
    },

    /** A failed group's backfill runs again from its recorded cursor at the next cron run. */
    async restart(chatKey: string) {
      const log = new D1AuditLog(env.DB);
      const at = Date.now();
      return restartBackfill(chatKey, {
        store,
        settings: await settings.current(),
        now: at,
        audit: (entry) =>
          log.record({
            at,
            actor: who.actor,
            action: "backfill.restart",
            chatKey: chatKey.length <= 200 ? chatKey : null,
            target: chatKey.slice(0, 200),
            detail: { via: who.via, outcome: entry.outcome, ...entry.detail },
          }),
      });
    },
  };
}

export type BackfillService = ReturnType<typeof backfillService>;
