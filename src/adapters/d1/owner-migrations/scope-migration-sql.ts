/** The SQL of `scope-migration` (plan logic: src/domain/memory/scope-migration.ts). */

import { err, ok, type Result } from "../../../domain/kernel/result";
import type { ScopeMigrationEntry, ScopeMigrationPlan } from "../../../domain/memory/scope-migration";
import { auditSql, sqlInteger, sqlString, verifySql } from "./owner-plan-sql";

export const INSPECT_SQL = `SELECT node_id, kind, scope_type, scope_id, status, node_type, raw_text, metadata, provenance, updated_at
FROM nodes WHERE node_type = 'memory' AND scope_type = 'global' AND scope_id = '__global__' AND status = 'active'
ORDER BY seq`;

/** Guarded UPDATEs moving the selected rows, plus the audit row. */
export function scopeMigrationApplySql(
  entries: readonly ScopeMigrationEntry[],
  stamp: number,
  actor?: string,
): string {
  const lines = entries.map(
    (e) =>
      `UPDATE nodes SET scope_type = 'chat', scope_id = ${sqlString(e.to ?? "")}, updated_at = ${sqlInteger(stamp)} ` +
      `WHERE node_id = ${sqlString(e.nodeId)} AND node_type = 'memory' AND scope_type = 'global' AND scope_id = '__global__' ` +
      `AND status = ${sqlString(e.before.status)} AND updated_at = ${sqlInteger(e.before.updated_at)};`,
  );
  lines.push(
    auditSql({
      dedupeKey: `scope-migration:apply:${stamp}`,
      at: stamp,
      actor,
      action: "scope_migration_apply",
      detail: { rows: entries.length, moves: entries.map((e) => ({ node: e.nodeId, to: e.to })) },
    }),
  );
  return lines.join("\n");
}

/** Which of the selected rows carry the apply's stamp in their new scope. */
export const scopeMigrationAppliedSql = (entries: readonly ScopeMigrationEntry[], stamp: number) =>
  verifySql(
    entries.map((e) => e.nodeId),
    `scope_type = 'chat' AND updated_at = ${sqlInteger(stamp)}`,
  );

/** Guarded UPDATEs restoring the applied rows to their before-state, plus the audit row. */
export function scopeMigrationRollbackSql(
  plan: ScopeMigrationPlan,
  at: number,
  actor?: string,
): Result<string, string> {
  const applied = plan.applied;
  if (!applied) return err("this plan was never applied; there is nothing to roll back");
  if (applied.rolledBack) return err(`this plan was already rolled back at ${applied.rolledBack.at}`);
  const byId = new Map(plan.entries.map((e) => [e.nodeId, e]));
  const lines: string[] = [];
  for (const id of applied.nodeIds) {
    const e = byId.get(id);
    if (!e?.to) return err(`applied node ${id} has no entry with a target in the plan`);
    lines.push(
      `UPDATE nodes SET scope_type = ${sqlString(e.before.scope_type)}, scope_id = ${sqlString(e.before.scope_id)}, ` +
        `updated_at = ${sqlInteger(e.before.updated_at)} WHERE node_id = ${sqlString(id)} AND scope_type = 'chat' ` +
        `AND scope_id = ${sqlString(e.to)} AND updated_at = ${sqlInteger(applied.stamp)};`,
    );
  }
  lines.push(
    auditSql({
      dedupeKey: `scope-migration:rollback:${applied.stamp}`,
      at,
      actor,
      action: "scope_migration_rollback",
      detail: { rows: applied.nodeIds.length, appliedAt: applied.at },
    }),
  );
  return ok(lines.join("\n"));
}

/** Which applied rows are back in their before-state. */
export const scopeMigrationRestoredSql = (plan: ScopeMigrationPlan) =>
  verifySql(plan.applied?.nodeIds ?? [], "scope_type = 'global' AND scope_id = '__global__'");
