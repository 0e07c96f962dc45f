/**
 * The session registry as admins use it (docs/sessions.md#commands): the same operations as
 * the `/session` command and the owner CLI, through the same `runSessionOperation`, so
 * validation, confirmation and audit agree. Every call is audited with the acting admin, the
 * face it came through and the request as its command text.
 */

import { D1AuditLog } from "../../adapters/d1/d1-audit-log";
import type { SettingsSource } from "../../domain/config/settings-source";
import { exposuresOfLink, whosePrivateMemoryGroupReads } from "../../domain/sessions/cluster-exposure";
import { runSessionOperation, type SessionAnswer } from "../../domain/sessions/run-session-operation";
import type { SessionOperation } from "../../domain/sessions/session-operation";
import { personAccounts, sessionRegistry } from "../common/forgetting-session-registry";
import type { AdminRequest } from "./admin-request";

export type { PrivateExposure } from "../../domain/sessions/cluster-exposure";
export type { SessionInfo } from "../../domain/sessions/session-registry";

export function sessionsService(env: Env, who: AdminRequest, settings: SettingsSource) {
  const current = () => settings.current();
  const registry = sessionRegistry(env, current);
  const log = new D1AuditLog(env.DB);
  return {
    /** Runs one operation; `commandText` is the request as the admin sent it (method, path, body). */
    async run(op: SessionOperation, commandText: string): Promise<SessionAnswer> {
      const { timeZone } = (await current()).calendar;
      return runSessionOperation(op, {
        registry,
        personAccounts: personAccounts(env, current),
        audit: (entry) =>
          log.record({
            at: Date.now(),
            actor: who.actor,
            action: entry.action,
            chatKey: entry.target?.includes(":") && !entry.target.includes(" ") ? entry.target : null,
            target: entry.target ?? "",
            detail: { via: who.via, outcome: entry.outcome, ...entry.detail },
          }),
        now: Date.now(),
        timeZone,
        commandText: commandText.slice(0, 2000),
      });
    },

    list: (limit: number) => registry.list({ limit }),

    /** Whose private chats this group reads through its cluster (the dashboard's risk marker); null = no such session. */
    privateReaders: (ref: string) => whosePrivateMemoryGroupReads(registry, ref),

    /** Whose private memory linking `a` with `b` would expose; null when either is unknown. */
    async linkExposures(a: string, b: string) {
      const [sa, sb] = await Promise.all([registry.resolve(a), registry.resolve(b)]);
      if (!sa || !sb) return null;
      return exposuresOfLink(await registry.members(sa.clusterId), sb);
    },
  };
}

export type SessionsService = ReturnType<typeof sessionsService>;
