/**
 * `sensitivity-backfill` (docs/memory.md#sensitivity-backfill): memory written before sensitivity
 * tags existed carries `private` only because that was the old default. Those rows —
 * `sensitivity = 'private' AND sensitivity_source = 'default'` — become `public`, the new
 * default; anything dreaming or a person tagged (`dream`, `explicit`) is never touched. Run it
 * before turning soft scope on, or legacy items stay unreachable outside their scope.
 */
import { err, ok, type Result } from "../shared/result";
import {
  auditSql,
  checkApproval,
  checkHeader,
  type Database,
  isObjectValue,
  type PlanHeader,
  sqlInteger,
  sqlString,
  verifySql,
} from "./owner-plan";

export const SENSITIVITY_BACKFILL = "akasha.sensitivity-backfill";

export type SensitivityRow = {
  readonly node_id: string;
  readonly node_type: string;
  readonly kind: string | null;
  readonly scope_type: string;
  readonly scope_id: string;
  readonly sensitivity: string;
  readonly sensitivity_source: string;
  readonly raw_text: string;
  readonly updated_at: number;
};

export type BackfillEntry = {
  readonly nodeId: string;
  readonly kind: string | null;
  readonly scope: string;
  readonly action: "make_public";
  readonly approval: "pending" | "approved" | "rejected";
  readonly before: {
    readonly sensitivity: "private";
    readonly sensitivity_source: "default";
    readonly updated_at: number;
  };
  readonly text: string;
};

export type BackfillPlan = PlanHeader<typeof SENSITIVITY_BACKFILL> & {
  readonly counts: { readonly make_public: number };
  readonly entries: readonly BackfillEntry[];
};

export const BACKFILL_INSPECT_SQL = `SELECT node_id, node_type, kind, scope_type, scope_id, sensitivity, sensitivity_source, raw_text, updated_at
FROM nodes WHERE node_type = 'memory' AND sensitivity = 'private' AND sensitivity_source = 'default'
ORDER BY seq`;

export function planSensitivityBackfill(
  rows: readonly SensitivityRow[],
  meta: { createdAt: string; database: Database },
): BackfillPlan {
  const entries: BackfillEntry[] = rows
    .filter(
      (r) => r.node_type === "memory" && r.sensitivity === "private" && r.sensitivity_source === "default",
    )
    .map((r) => ({
      nodeId: r.node_id,
      kind: r.kind,
      scope: `${r.scope_type}:${r.scope_id}`,
      action: "make_public",
      approval: "pending",
      before: { sensitivity: "private", sensitivity_source: "default", updated_at: r.updated_at },
      text: [...r.raw_text].slice(0, 120).join(""),
    }));
  return {
    kind: SENSITIVITY_BACKFILL,
    version: 1,
    createdAt: meta.createdAt,
    database: meta.database,
    counts: { make_public: entries.length },
    entries,
  };
}

export function readBackfillPlan(json: unknown, database: Database): Result<BackfillPlan, string> {
  const header = checkHeader(json, SENSITIVITY_BACKFILL, database);
  if (!header.ok) return header;
  const seen = new Set<string>();
  for (const [i, e] of (header.value.entries as unknown[]).entries()) {
    const where = `entry ${i}`;
    if (!isObjectValue(e) || typeof e.nodeId !== "string" || e.nodeId === "")
      return err(`${where}: no nodeId`);
    if (seen.has(e.nodeId)) return err(`${where}: node ${e.nodeId} is listed twice`);
    seen.add(e.nodeId);
    if (e.action !== "make_public")
      return err(`${where} (${e.nodeId}): unknown action ${JSON.stringify(e.action)}`);
    const approval = checkApproval(e.approval, `${where} (${e.nodeId})`);
    if (!approval.ok) return approval;
    const b = e.before;
    if (
      !isObjectValue(b) ||
      b.sensitivity !== "private" ||
      b.sensitivity_source !== "default" ||
      !Number.isSafeInteger(b.updated_at)
    ) {
      return err(`${where} (${e.nodeId}): before-state must be a default-sourced private item`);
    }
  }
  return ok(header.value as unknown as BackfillPlan);
}

export function selectBackfill(plan: BackfillPlan, options: { applyAllSafe: boolean }): BackfillEntry[] {
  return plan.entries.filter(
    (e) => e.approval === "approved" || (options.applyAllSafe && e.approval === "pending"),
  );
}

export function backfillApplySql(entries: readonly BackfillEntry[], stamp: number): string {
  const lines = entries.map(
    (e) =>
      `UPDATE nodes SET sensitivity = 'public', updated_at = ${sqlInteger(stamp)} WHERE node_id = ${sqlString(e.nodeId)} ` +
      `AND sensitivity = 'private' AND sensitivity_source = 'default' AND updated_at = ${sqlInteger(e.before.updated_at)};`,
  );
  lines.push(
    auditSql({
      dedupeKey: `sensitivity-backfill:apply:${stamp}`,
      at: stamp,
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

export function backfillRollbackSql(plan: BackfillPlan, at: number): Result<string, string> {
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
      action: "sensitivity_backfill_rollback",
      detail: { rows: applied.nodeIds.length, appliedAt: applied.at },
    }),
  );
  return ok(lines.join("\n"));
}

export const backfillRestoredSql = (plan: BackfillPlan) =>
  verifySql(plan.applied?.nodeIds ?? [], "sensitivity = 'private' AND sensitivity_source = 'default'");
