/**
 * The owner's copy of each chat's D1 log into its object, as admins run it (the admin API and
 * `akasha log migrate`): one bounded step at a time, its progress, a second try of the chats
 * that did not verify, the confirmed deletion of verified chats' old D1 rows, and the rollback: the chats' reads go back to D1, and each object first
 * queues for D1 what it alone logged while it was the home (log-import.ts), so nothing is lost.
 * Rollback and retry are audited with the acting admin.
 */
import { D1AuditLog } from "../../adapters/d1/d1-audit-log";
import { D1LogMigrationLedger, D1LogPages } from "../../adapters/d1/d1-log-migration";
import type { ChatKey } from "../../domain/chat/chat-address";
import { chatObject } from "../common/chat-stub";
import type { AdminRequest } from "./admin-request";
import { type D1DeletionReport, deleteMigratedD1Rows } from "./log-d1-deletion";
import {
  type ChatLogObject,
  DEFAULT_BUDGET,
  type LogMigrationPorts,
  logMigrationProgress,
  logMigrationStep,
  type StepBudget,
} from "./log-migration-step";

export type { LogMigrationProgress, StepBudget, StepReport } from "./log-migration-step";

/** Chats a rollback call sends back to D1 at most; the next call takes the rest. */
const ROLLBACK_CHATS = 200;

export function logMigrationService(env: Env, who: AdminRequest) {
  const ledger = new D1LogMigrationLedger(env.DB);
  const object = (key: string) => chatObject(env, key as ChatKey);
  const ports: LogMigrationPorts = {
    ledger,
    pages: new D1LogPages(env.DB),
    object: (key): ChatLogObject => object(key),
    now: () => Date.now(),
  };
  const audit = (action: string, detail: Record<string, unknown>) =>
    new D1AuditLog(env.DB).record({
      at: Date.now(),
      actor: who.actor,
      action,
      chatKey: null,
      target: "log_migration",
      detail: { via: who.via, ...detail },
    });
  return {
    progress: () => logMigrationProgress(ledger),

    step: (budget: Partial<StepBudget> = {}) => logMigrationStep(ports, { ...DEFAULT_BUDGET, ...budget }),

    /** The chats that did not verify are copied again from their start (each row once). */
    async retry() {
      const chats = await ledger.inState("mismatch");
      await ledger.reopen(chats, true, null, Date.now());
      await audit("log_migration.retry", { chats: chats.length });
      return { reopened: chats.length, progress: await logMigrationProgress(ledger) };
    },

    /**
     * Verified chats read D1 again (the object's home back to `d1`) and wait, at their
     * cursor, for the next migration run. Bounded per call; `left` says how many remain.
     */
    async rollback() {
      // A chat whose D1 rows were deleted has nothing in D1 to read: it stays in its object.
      const gone = await ledger.deleted();
      const verified = (await ledger.inState("verified")).filter((key) => !gone.has(key));
      const now = verified.slice(0, ROLLBACK_CHATS);
      for (const key of now) {
        await object(key).resetLogHome();
        await ledger.reopen([key], false, "rolled back", Date.now());
      }
      await audit("log_migration.rollback", { chats: now.length, left: verified.length - now.length });
      return {
        rolledBack: now.length,
        left: verified.length - now.length,
        progress: await logMigrationProgress(ledger),
      };
    },

    /**
     * The old D1 rows of verified chats, deleted only with `confirm` (each chat checked again
     * first); without it, what would be deleted. Audited when confirmed.
     */
    async deleteD1(confirm: boolean): Promise<D1DeletionReport> {
      const report = await deleteMigratedD1Rows(
        { db: env.DB, ledger, object, actor: who.actor, now: () => Date.now() },
        confirm,
      );
      if (confirm)
        await audit("log_migration.delete_d1", {
          chats: report.chats.filter((c) => c.outcome === "deleted").length,
          rows: report.rows,
          kept: report.chats.filter((c) => c.outcome === "kept").length,
        });
      return report;
    },
  };
}

export type LogMigrationService = ReturnType<typeof logMigrationService>;
