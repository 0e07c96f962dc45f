/** The SQL of `sensitivity-backfill` (plan logic: src/domain/memory/sensitivity-backfill.ts). */

import { err, ok, type Result } from "../../../domain/kernel/result";
import type { BackfillEntry, BackfillPlan } from "../../../domain/memory/sensitivity-backfill";
import { auditSql, sqlInteger, sqlString, verifySql } from "./owner-plan-sql";

export const BACKFILL_INSPECT_SQL = `SELECT node_id, node_type, kind, scope_type, scope_id, sensitivity, sensitivity_source, raw_text, updated_at
FROM nodes WHERE node_type = 'memory' AND sensitivity = 'private' AND sensitivity_source = 'default'
ORDER BY seq`;

export function backfillApplySql(entries: readonly BackfillEntry[], stamp: number, actor?: string): string {
  const lines = entries.map(
    (e) =>
      `UPDATE nodes SET sensitivity = 'public', updated_at = ${sqlInteger(stamp)} WHERE node_id = ${sqlString(e.nodeId)} ` +
      `AND sensitivity = 'private' AND sensitivity_source = 'default' AND updated_at = ${sqlInteger(e.before.updated_at)};`,
  );
  lines.push(
    auditSql({
      dedupeKey: `sensitivity-backfill:apply:${stamp}`,
      at: stamp,
      actor,
      action: "sensitivity_backfill_apply",
      detail: { rows: entries.length },
    }),
  );
  return lines.join("\n");
}

export const backfillAppliedSql = (entries: readonly BackfillEntry[], stamp: number) =>
  verifySql(
    entries.map((e) => e.nodeId),
    `sensitivity = 'public' AND sensitivity_source = 'default' AND updated_at = ${sqlInteger(stamp)}`,
  );

export function backfillRollbackSql(plan: BackfillPlan, at: number, actor?: string): Result<string, string> {
  const applied = plan.applied;
  if (!applied) return err("this plan was never applied; there is nothing to roll back");
  if (applied.rolledBack) return err(`this plan was already rolled back at ${applied.rolledBack.at}`);
  const byId = new Map(plan.entries.map((e) => [e.nodeId, e]));
  const lines: string[] = [];
  for (const id of applied.nodeIds) {
    const e = byId.get(id);
    if (!e) return err(`applied node ${id} has no entry in the plan`);
    lines.push(
      `UPDATE nodes SET sensitivity = 'private', updated_at = ${sqlInteger(e.before.updated_at)} WHERE node_id = ${sqlString(id)} ` +
        `AND sensitivity = 'public' AND sensitivity_source = 'default' AND updated_at = ${sqlInteger(applied.stamp)};`,
    );
  }
  lines.push(
    auditSql({
      dedupeKey: `sensitivity-backfill:rollback:${applied.stamp}`,
      at,
      actor,
      action: "sensitivity_backfill_rollback",
      detail: { rows: applied.nodeIds.length, appliedAt: applied.at },
    }),
  );
  return ok(lines.join("\n"));
}

export const backfillRestoredSql = (plan: BackfillPlan) =>
  verifySql(plan.applied?.nodeIds ?? [], "sensitivity = 'private' AND sensitivity_source = 'default'");
