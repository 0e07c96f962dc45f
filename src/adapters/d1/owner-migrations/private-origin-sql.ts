/** The SQL of `private-origin` (plan logic: src/domain/memory/private-origin.ts). */

import { err, ok, type Result } from "../../../domain/kernel/result";
import type { OriginEntry, OriginPlan } from "../../../domain/memory/private-origin";
import { applySql, rollbackSql, sqlInteger, sqlString, verifySql } from "./owner-plan-sql";

/** Public memory and summaries; the plan keeps those learned in a private chat. */
export const ORIGIN_INSPECT_SQL = `SELECT node_id, node_type, kind, scope_type, scope_id, status, sensitivity, sensitivity_source, raw_text, provenance, updated_at
FROM nodes WHERE node_type IN ('memory', 'summary') AND status = 'active' AND sensitivity = 'public'
ORDER BY seq`;

/** Where an entry goes: its own scope, or for a global item the private chat it was learned in. */
const targetOf = (e: OriginEntry) =>
  e.action === "review_global"
    ? { type: "chat", id: e.chat }
    : { type: e.before.scope_type, id: e.before.scope_id };

/** Guarded UPDATEs re-marking the selected rows, plus the audit row. */
export function originApplySql(entries: readonly OriginEntry[], stamp: number, actor?: string): string {
  const update = (e: OriginEntry) => {
    const to = targetOf(e);
    return (
      `UPDATE nodes SET sensitivity = 'private', sensitivity_source = 'origin', scope_type = ${sqlString(to.type)}, ` +
      `scope_id = ${sqlString(to.id)}, updated_at = ${sqlInteger(stamp)} WHERE node_id = ${sqlString(e.nodeId)} ` +
      `AND scope_type = ${sqlString(e.before.scope_type)} AND scope_id = ${sqlString(e.before.scope_id)} ` +
      `AND sensitivity = 'public' AND sensitivity_source = ${sqlString(e.before.sensitivity_source)} ` +
      `AND status = 'active' AND updated_at = ${sqlInteger(e.before.updated_at)};`
    );
  };
  return applySql(entries, stamp, update, {
    migration: "private-origin",
    actor,
    detail: {
      rows: entries.length,
      fromGlobal: entries.filter((e) => e.action === "review_global").map((e) => e.nodeId),
    },
  });
}

export const originAppliedSql = (entries: readonly OriginEntry[], stamp: number) =>
  verifySql(
    entries.map((e) => e.nodeId),
    `sensitivity = 'private' AND sensitivity_source = 'origin' AND updated_at = ${sqlInteger(stamp)}`,
  );

/** Guarded UPDATEs restoring the applied rows to their before-state, plus the audit row. */
export function originRollbackSql(plan: OriginPlan, at: number, actor?: string): Result<string, string> {
  const restore = (id: string, e: OriginEntry | undefined, stamp: number): Result<string, string> => {
    if (!e) return err(`applied node ${id} has no entry in the plan`);
    const to = targetOf(e);
    return ok(
      `UPDATE nodes SET sensitivity = 'public', sensitivity_source = ${sqlString(e.before.sensitivity_source)}, ` +
        `scope_type = ${sqlString(e.before.scope_type)}, scope_id = ${sqlString(e.before.scope_id)}, ` +
        `updated_at = ${sqlInteger(e.before.updated_at)} WHERE node_id = ${sqlString(id)} ` +
        `AND scope_type = ${sqlString(to.type)} AND scope_id = ${sqlString(to.id)} ` +
        `AND sensitivity = 'private' AND sensitivity_source = 'origin' AND updated_at = ${sqlInteger(stamp)};`,
    );
  };
  return rollbackSql(plan, at, restore, { migration: "private-origin", actor });
}

/** Which applied rows are public again. */
export const originRestoredSql = (plan: OriginPlan) =>
  verifySql(plan.applied?.nodeIds ?? [], "sensitivity = 'public'");
