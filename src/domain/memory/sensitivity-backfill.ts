/**
 * `sensitivity-backfill` (docs/memory.md#sensitivity-backfill): memory written before sensitivity
 * tags existed carries `private` only because that was the old default. Those rows —
 * `sensitivity = 'private' AND sensitivity_source = 'default'` — become `public`, the new
 * default; anything dreaming or a person tagged (`dream`, `explicit`) is never touched. Run it
 * before turning soft scope on, or legacy items stay unreachable outside their scope.
 */
import { err, ok, type Result } from "../kernel/result";
import { checkEntries, checkHeader, type Database, isObjectValue, type PlanHeader } from "./owner-plan";

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
  const entries = checkEntries(header.value.entries as unknown[], ["make_public"], (e, where) => {
    const b = e.before;
    if (
      !isObjectValue(b) ||
      b.sensitivity !== "private" ||
      b.sensitivity_source !== "default" ||
      !Number.isSafeInteger(b.updated_at)
    ) {
      return err(`${where} (${e.nodeId}): before-state must be a default-sourced private item`);
    }
    return ok(undefined);
  });
  if (!entries.ok) return entries;
  return ok(header.value as unknown as BackfillPlan);
}

export function selectBackfill(plan: BackfillPlan, options: { applyAllSafe: boolean }): BackfillEntry[] {
  return plan.entries.filter(
    (e) => e.approval === "approved" || (options.applyAllSafe && e.approval === "pending"),
  );
}
