import {
  backfillApplySql,
  backfillRollbackSql,
} from "@src/adapters/d1/owner-migrations/sensitivity-backfill-sql";
import {
  planSensitivityBackfill,
  readBackfillPlan,
  type SensitivityRow,
  selectBackfill,
} from "@src/domain/memory/sensitivity-backfill";
import { describe, it } from "vitest";

const row = (node_id: string, sensitivity: string, sensitivity_source: string): SensitivityRow => ({
  node_id,
  node_type: "memory",
  kind: "fact",
  scope_type: "chat",
  scope_id: "qq:group:G1",
  sensitivity,
  sensitivity_source,
  raw_text: "x",
  updated_at: 1000,
});
const meta = { createdAt: "t", database: "local" as const };

describe("sensitivity backfill", () => {
  it("plans only private items whose sensitivity came from the old default", ({ expect }) => {
    const plan = planSensitivityBackfill(
      [
        row("a", "private", "default"),
        row("b", "private", "dream"),
        row("c", "private", "explicit"),
        row("d", "public", "default"),
      ],
      meta,
    );
    expect(plan.entries.map((e) => e.nodeId)).toEqual(["a"]);
    expect(plan.counts).toEqual({ make_public: 1 });
  });

  it("applies approved rows, or all with --apply-all-safe, guarded by the before-state", ({ expect }) => {
    const plan = planSensitivityBackfill(
      [row("a", "private", "default"), row("b", "private", "default")],
      meta,
    );
    expect(selectBackfill(plan, { applyAllSafe: false })).toEqual([]);
    expect(selectBackfill(plan, { applyAllSafe: true })).toHaveLength(2);
    const approved = {
      ...plan,
      entries: plan.entries.map((e) => (e.nodeId === "b" ? { ...e, approval: "approved" as const } : e)),
    };
    expect(selectBackfill(approved, { applyAllSafe: false }).map((e) => e.nodeId)).toEqual(["b"]);
    expect(backfillApplySql(plan.entries.slice(0, 1), 5000)).toContain(
      "UPDATE nodes SET sensitivity = 'public', updated_at = 5000 WHERE node_id = 'a' AND sensitivity = 'private' AND sensitivity_source = 'default' AND updated_at = 1000;",
    );
  });

  it("refuses bad plans and rolls back only an applied one", ({ expect }) => {
    const plan = planSensitivityBackfill([row("a", "private", "default")], meta);
    expect(readBackfillPlan({ ...plan, kind: "akasha.scope-migration" }, "local").ok).toBe(false);
    expect(readBackfillPlan(plan, "remote").ok).toBe(false);
    const edited = JSON.parse(JSON.stringify(plan));
    edited.entries[0].before.sensitivity_source = "explicit";
    expect(readBackfillPlan(edited, "local")).toEqual({
      ok: false,
      error: expect.stringContaining("default-sourced private"),
    });
    expect(backfillRollbackSql(plan, 1).ok).toBe(false);
    const applied = {
      ...plan,
      applied: {
        at: "t",
        stamp: 5000,
        nodeIds: ["a"],
        skipped: [],
        backup: { kind: "local-copy" as const, path: "p", at: "t" },
      },
    };
    const sql = backfillRollbackSql(applied, 6000);
    expect(sql.ok && sql.value).toContain(
      "SET sensitivity = 'private', updated_at = 1000 WHERE node_id = 'a' AND sensitivity = 'public'",
    );
  });
});
