/**
 * The owner's data migrations run from the dashboard: the same plan logic (src/domain/memory)
 * and SQL (this folder) as `npm run akasha -- scope-migration|sensitivity-backfill`, with the
 * plan kept in D1 (`owner_plans`) instead of a file. The plan's before-states are the backup:
 * every UPDATE is guarded by them, and rollback restores from them. Apply and rollback write
 * their audit row, naming the acting admin, in the same D1 batch as the change.
 */
import { err, ok, type Result } from "../../../domain/kernel/result";
import type { Applied, Database } from "../../../domain/memory/owner-plan";
import {
  type GlobalMemoryRow,
  planScopeMigration,
  readScopeMigrationPlan,
  type ScopeMigrationPlan,
  selectScopeMigration,
} from "../../../domain/memory/scope-migration";
import {
  type BackfillPlan,
  planSensitivityBackfill,
  readBackfillPlan,
  type SensitivityRow,
  selectBackfill,
} from "../../../domain/memory/sensitivity-backfill";
import { insertAuditRow } from "../d1-audit-log";
import {
  INSPECT_SQL,
  scopeMigrationAppliedSql,
  scopeMigrationApplySql,
  scopeMigrationRestoredSql,
  scopeMigrationRollbackSql,
} from "./scope-migration-sql";
import {
  BACKFILL_INSPECT_SQL,
  backfillAppliedSql,
  backfillApplySql,
  backfillRestoredSql,
  backfillRollbackSql,
} from "./sensitivity-backfill-sql";

export const PLAN_KINDS = ["scope-migration", "sensitivity-backfill"] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];
export type OwnerPlan = ScopeMigrationPlan | BackfillPlan;
export type StoredPlan = {
  id: string;
  kind: PlanKind;
  createdAt: number;
  createdBy: string;
  plan: OwnerPlan;
};
/** Per row the admin approves: the node id, and for a manual_review row the chat it moves to. */
export type Approval = { readonly nodeId: string; readonly to?: string | undefined };
type PlanError = { kind: "invalid"; field: string; reason: string } | { kind: "not-found"; what: string };

/** Statements generated one per line (values are escaped literals without raw newlines). */
const statements = (sql: string) => sql.split("\n").filter((line) => line.trim() !== "");

export class D1OwnerPlans {
  readonly #db: D1Database;
  readonly #database: Database;
  constructor(db: D1Database, database: Database) {
    this.#db = db;
    this.#database = database;
  }

  async create(kind: PlanKind, actor: string, now: number): Promise<StoredPlan> {
    const meta = { createdAt: new Date(now).toISOString(), database: this.#database };
    const plan: OwnerPlan =
      kind === "scope-migration"
        ? planScopeMigration((await this.#db.prepare(INSPECT_SQL).all<GlobalMemoryRow>()).results, meta)
        : planSensitivityBackfill(
            (await this.#db.prepare(BACKFILL_INSPECT_SQL).all<SensitivityRow>()).results,
            meta,
          );
    const id = `plan-${now}-${crypto.randomUUID().slice(0, 8)}`;
    await this.#db.batch([
      this.#db
        .prepare(
          "INSERT INTO owner_plans (plan_id, kind, created_at, created_by, plan, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?3)",
        )
        .bind(id, kind, now, actor, JSON.stringify(plan)),
      this.#audit(now, actor, `owner_plan.${kind}.create`, id, { rows: plan.entries.length }),
    ]);
    return { id, kind, createdAt: now, createdBy: actor, plan };
  }

  async list(limit: number): Promise<StoredPlan[]> {
    const { results } = await this.#db
      .prepare(
        "SELECT plan_id, kind, created_at, created_by, plan FROM owner_plans ORDER BY created_at DESC LIMIT ?1",
      )
      .bind(limit)
      .all<{ plan_id: string; kind: PlanKind; created_at: number; created_by: string; plan: string }>();
    return results.map((r) => ({
      id: r.plan_id,
      kind: r.kind,
      createdAt: r.created_at,
      createdBy: r.created_by,
      plan: JSON.parse(r.plan) as OwnerPlan,
    }));
  }

  async get(id: string): Promise<StoredPlan | null> {
    const row = await this.#db
      .prepare("SELECT plan_id, kind, created_at, created_by, plan FROM owner_plans WHERE plan_id = ?1")
      .bind(id)
      .first<{ plan_id: string; kind: PlanKind; created_at: number; created_by: string; plan: string }>();
    if (!row) return null;
    return {
      id: row.plan_id,
      kind: row.kind,
      createdAt: row.created_at,
      createdBy: row.created_by,
      plan: JSON.parse(row.plan) as OwnerPlan,
    };
  }

  /** Approves exactly the given rows (every other row is rejected) and applies them. */
  async apply(
    id: string,
    approvals: readonly Approval[],
    actor: string,
    now: number,
  ): Promise<Result<StoredPlan, PlanError>> {
    const stored = await this.get(id);
    if (!stored) return err({ kind: "not-found", what: `plan ${id}` });
    if (stored.plan.applied)
      return err({
        kind: "invalid",
        field: "plan",
        reason: `was already applied at ${stored.plan.applied.at}`,
      });
    if (approvals.length === 0)
      return err({ kind: "invalid", field: "approve", reason: "names no row: tick the rows to apply" });
    const byId = new Map(approvals.map((a) => [a.nodeId, a]));
    const known = new Set(stored.plan.entries.map((e) => e.nodeId));
    const unknown = approvals.find((a) => !known.has(a.nodeId));
    if (unknown)
      return err({ kind: "invalid", field: "approve", reason: `row ${unknown.nodeId} is not in this plan` });
    const entries = stored.plan.entries.map((e) => {
      const a = byId.get(e.nodeId);
      return {
        ...e,
        approval: a ? "approved" : "rejected",
        ...(a?.to !== undefined && "to" in e && e.to === null ? { to: a.to } : {}),
      };
    });
    const edited = { ...stored.plan, entries };
    const stamp = now;
    let applySql: string;
    let verify: string[];
    let plan: OwnerPlan;
    if (stored.kind === "scope-migration") {
      const read = readScopeMigrationPlan(edited, this.#database);
      if (!read.ok) return err({ kind: "invalid", field: "approve", reason: read.error });
      const selected = selectScopeMigration(read.value, { applyAllSafe: false });
      if (selected.length === 0)
        return err({ kind: "invalid", field: "approve", reason: "no approved row has anything to migrate" });
      applySql = scopeMigrationApplySql(selected, stamp, actor);
      verify = scopeMigrationAppliedSql(selected, stamp);
      plan = read.value;
    } else {
      const read = readBackfillPlan(edited, this.#database);
      if (!read.ok) return err({ kind: "invalid", field: "approve", reason: read.error });
      const selected = selectBackfill(read.value, { applyAllSafe: false });
      applySql = backfillApplySql(selected, stamp, actor);
      verify = backfillAppliedSql(selected, stamp);
      plan = read.value;
    }
    await this.#db.batch(statements(applySql).map((s) => this.#db.prepare(s)));
    const nodeIds = await this.#ids(verify);
    const changed = new Set(nodeIds);
    const applied: Applied = {
      at: new Date(stamp).toISOString(),
      stamp,
      nodeIds,
      skipped: approvals.map((a) => a.nodeId).filter((n) => !changed.has(n)),
      backup: { kind: "plan-before-states", at: new Date(stamp).toISOString() },
    };
    const next = { ...plan, applied } as OwnerPlan;
    await this.#save(id, next, now);
    return ok({ ...stored, plan: next });
  }

  /** Restores the applied rows that nothing changed since, from their before-states. */
  async rollback(id: string, actor: string, now: number): Promise<Result<StoredPlan, PlanError>> {
    const stored = await this.get(id);
    if (!stored) return err({ kind: "not-found", what: `plan ${id}` });
    const plan = stored.plan;
    const sql =
      stored.kind === "scope-migration"
        ? scopeMigrationRollbackSql(plan as ScopeMigrationPlan, now, actor)
        : backfillRollbackSql(plan as BackfillPlan, now, actor);
    if (!sql.ok) return err({ kind: "invalid", field: "plan", reason: sql.error });
    await this.#db.batch(statements(sql.value).map((s) => this.#db.prepare(s)));
    const restored = new Set(
      await this.#ids(
        stored.kind === "scope-migration"
          ? scopeMigrationRestoredSql(plan as ScopeMigrationPlan)
          : backfillRestoredSql(plan as BackfillPlan),
      ),
    );
    const applied = plan.applied as Applied;
    const next = {
      ...plan,
      applied: {
        ...applied,
        rolledBack: {
          at: new Date(now).toISOString(),
          nodeIds: [...restored],
          conflicts: applied.nodeIds.filter((n) => !restored.has(n)),
        },
      },
    } as OwnerPlan;
    await this.#save(id, next, now);
    return ok({ ...stored, plan: next });
  }

  async #ids(queries: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (const q of queries) {
      const { results } = await this.#db.prepare(q).all<{ node_id: string }>();
      out.push(...results.map((r) => r.node_id));
    }
    return out;
  }

  async #save(id: string, plan: OwnerPlan, now: number) {
    await this.#db
      .prepare("UPDATE owner_plans SET plan = ?1, updated_at = ?2 WHERE plan_id = ?3")
      .bind(JSON.stringify(plan), now, id)
      .run();
  }

  #audit(at: number, actor: string, action: string, target: string, detail: Record<string, unknown>) {
    return insertAuditRow(this.#db, {
      dedupeKey: `${action}:${at}:${crypto.randomUUID()}`,
      at,
      actor,
      action,
      chatKey: null,
      target,
      detail,
    });
  }
}
