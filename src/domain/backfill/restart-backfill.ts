/**
 * Restarting a failed OneBot backfill (docs/sessions.md#onebot-backfill): the record runs again from
 * its cursor, with its counts kept and a fresh page bound, so the next cron run fetches the
 * pages older than the oldest one stored — nothing from the top again, and whatever it fetches
 * goes through the same deduplicating insert as live messages. Idempotent: a record that is
 * already running is left as it is. A finished record (done, forgotten) or a group no longer
 * followed is refused, with nothing changed. Every use is audited with the acting admin.
 */
import { parseChatKey } from "../chat/chat-address";
import type { Settings } from "../config/settings";
import type { AuditOutcome } from "../kernel/audit";
import { type DomainError, err, ok, type Result } from "../kernel/result";
import type { BackfillProgress, BackfillProgressStore } from "./backfill-progress";
import { followedOneBotGroups } from "./run-backfill";

export type BackfillRestart = { readonly changed: boolean; readonly progress: BackfillProgress };

export type BackfillRestartDeps = {
  readonly store: BackfillProgressStore;
  readonly settings: Settings;
  readonly now: number;
  readonly audit: (entry: {
    readonly outcome: AuditOutcome;
    readonly detail: Readonly<Record<string, string | number | boolean | null>>;
  }) => Promise<void>;
};

export async function restartBackfill(
  chatKey: string,
  deps: BackfillRestartDeps,
): Promise<Result<BackfillRestart, DomainError>> {
  const refuse = async (error: DomainError, outcome: AuditOutcome = "invalid") => {
    const reason = "reason" in error ? error.reason : error.kind === "not-found" ? error.what : error.kind;
    await deps.audit({ outcome, detail: { reason } });
    return err(error);
  };
  const parsed = parseChatKey(chatKey);
  if (!parsed.ok || parsed.value.channel !== "onebot" || parsed.value.targetType !== "group")
    return refuse({
      kind: "invalid",
      field: "chat",
      reason: "must be a OneBot group chat key (onebot:group:<id>)",
    });
  const p = await deps.store.get(chatKey);
  if (!p)
    return refuse({
      kind: "not-found",
      what: `backfill record of ${chatKey} (the cron has not reached it yet)`,
    });
  if (p.status === "running") {
    await deps.audit({ outcome: "ok", detail: { changed: false, cursor: p.cursor } });
    return ok({ changed: false, progress: p });
  }
  if (p.status === "done")
    return refuse(
      {
        kind: "invalid",
        field: "status",
        reason: `is done (${p.doneReason ?? "finished"}): only a failed backfill restarts`,
      },
      "refused",
    );
  if (!(await followedOneBotGroups(deps.settings, deps.store)).includes(chatKey))
    return refuse(
      {
        kind: "invalid",
        field: "chat",
        reason: "is not followed: the backfill runs only for followed groups",
      },
      "refused",
    );
  const next: BackfillProgress = {
    ...p,
    status: "running",
    doneReason: null,
    restarts: p.restarts + 1,
    restartPages: p.pages,
    updatedAt: deps.now,
  };
  await deps.store.save(next);
  await deps.audit({
    outcome: "ok",
    detail: {
      changed: true,
      cursor: p.cursor,
      stored: p.stored,
      restarts: next.restarts,
      lastError: p.lastError,
    },
  });
  return ok({ changed: true, progress: next });
}
