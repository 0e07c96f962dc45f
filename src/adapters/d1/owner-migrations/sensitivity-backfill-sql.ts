/** The SQL of `sensitivity-backfill` (plan logic: src/domain/memory/sensitivity-backfill.ts). */

import { err, ok, type Result } from "../../../domain/kernel/result";
import type { BackfillEntry, BackfillPlan } from "../../../domain/memory/sensitivity-backfill";
import { applySql, rollbackSql, sqlInteger, sqlString, verifySql } from "./owner-plan-sql";

export const BACKFILL_INSPECT_SQL = `SELECT node_id, node_type, kind, scope_type, scope_id, sensitivity, sensitivity_source, raw_text, updated_at
FROM nodes WHERE node_type = 'memory' AND sensitivity = 'private' AND sensitivity_source = 'default'
ORDER BY seq`;

export function backfillApplySql(entries: readonly BackfillEntry[], stamp: number, actor?: string): string {
  const update = (e: BackfillEntry) =>
    `UPDATE nodes SET sensitivity = 'public', updated_at = ${sqlInteger(stamp)} WHERE node_id = ${sqlString(e.nodeId)} ` +
    `AND sensitivity = 'private' AND sensitivity_source = 'default' AND updated_at = ${sqlInteger(e.before.updated_at)};`;
  return applySql(entries, stamp, update, {
    migration: "sensitivity-backfill",
    actor,
    detail: { rows: entries.length },
  });
}

export const backfillAppliedSql = (entries: readonly BackfillEntry[], stamp: number) =>
  verifySql(
    entries.map((e) => e.nodeId),
    `sensitivity = 'public' AND sensitivity_source = 'default' AND updated_at = ${sqlInteger(stamp)}`,
  );

export function backfillRollbackSql(plan: BackfillPlan, at: number, actor?: string): Result<string, string> {
  const restore = (id: string, e: BackfillEntry | undefined, stamp: number): Result<string, string> =>
    e
      ? ok(
          `UPDATE nodes SET sensitivity = 'private', updated_at = ${sqlInteger(e.before.updated_at)} WHERE node_id = ${sqlString(id)} ` +
            `AND sensitivity = 'public' AND sensitivity_source = 'default' AND updated_at = ${sqlInteger(stamp)};`,
        )
      : err(`applied node ${id} has no entry in the plan`);
  return rollbackSql(plan, at, restore, { migration: "sensitivity-backfill", actor });
}

export const backfillRestoredSql = (plan: BackfillPlan) =>
  verifySql(plan.applied?.nodeIds ?? [], "sensitivity = 'private' AND sensitivity_source = 'default'");
