/** The SQL of `scope-migration` (plan logic: src/domain/memory/scope-migration.ts). */

import { err, ok, type Result } from "../../../domain/kernel/result";
import type { ScopeMigrationEntry, ScopeMigrationPlan } from "../../../domain/memory/scope-migration";
import { applySql, rollbackSql, sqlInteger, sqlString, verifySql } from "./owner-plan-sql";

export const INSPECT_SQL = `SELECT node_id, kind, scope_type, scope_id, status, node_type, raw_text, metadata, provenance, updated_at
FROM nodes WHERE node_type = 'memory' AND scope_type = 'global' AND scope_id = '__global__' AND status = 'active'
ORDER BY seq`;

/** Guarded UPDATEs moving the selected rows, plus the audit row. */
export function scopeMigrationApplySql(
  entries: readonly ScopeMigrationEntry[],
  stamp: number,
  actor?: string,
): string {
  const update = (e: ScopeMigrationEntry) =>
    `UPDATE nodes SET scope_type = 'chat', scope_id = ${sqlString(e.to ?? "")}, updated_at = ${sqlInteger(stamp)} ` +
    `WHERE node_id = ${sqlString(e.nodeId)} AND node_type = 'memory' AND scope_type = 'global' AND scope_id = '__global__' ` +
    `AND status = ${sqlString(e.before.status)} AND updated_at = ${sqlInteger(e.before.updated_at)};`;
  return applySql(entries, stamp, update, {
    migration: "scope-migration",
    actor,
    detail: { rows: entries.length, moves: entries.map((e) => ({ node: e.nodeId, to: e.to })) },
  });
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
  const restore = (id: string, e: ScopeMigrationEntry | undefined, stamp: number): Result<string, string> =>
    e?.to
      ? ok(
          `UPDATE nodes SET scope_type = ${sqlString(e.before.scope_type)}, scope_id = ${sqlString(e.before.scope_id)}, ` +
            `updated_at = ${sqlInteger(e.before.updated_at)} WHERE node_id = ${sqlString(id)} AND scope_type = 'chat' ` +
            `AND scope_id = ${sqlString(e.to)} AND updated_at = ${sqlInteger(stamp)};`,
        )
      : err(`applied node ${id} has no entry with a target in the plan`);
  return rollbackSql(plan, at, restore, { migration: "scope-migration", actor });
}

/** Which applied rows are back in their before-state. */
export const scopeMigrationRestoredSql = (plan: ScopeMigrationPlan) =>
  verifySql(plan.applied?.nodeIds ?? [], "scope_type = 'global' AND scope_id = '__global__'");
