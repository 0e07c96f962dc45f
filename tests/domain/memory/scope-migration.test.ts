// Scope-migration cases (docs/memory.md#scope-migration): planning, plan validation, row selection and the SQL of
// apply and rollback, as pure functions. tests/adapters/d1/owner-migrations/owner-migrations.test.ts runs the
// SQL against real D1.

import {
  scopeMigrationApplySql,
  scopeMigrationRollbackSql,
} from "@src/adapters/d1/owner-migrations/scope-migration-sql";
import {
  evidenceOf,
  type GlobalMemoryRow,
  planScopeMigration,
  readScopeMigrationPlan,
  type ScopeMigrationPlan,
  selectScopeMigration,
} from "@src/domain/memory/scope-migration";
import { describe, it } from "vitest";

const row = (
  node_id: string,
  kind: string | null,
  provenance: unknown = {},
  metadata: unknown = {},
): GlobalMemoryRow => ({
  node_id,
  kind,
  scope_type: "global",
  scope_id: "__global__",
  status: "active",
  node_type: "memory",
  raw_text: `text of ${node_id}`,
  metadata: JSON.stringify(metadata),
  provenance: JSON.stringify(provenance),
  updated_at: 1000,
});

const meta = { createdAt: "2026-01-01T00:00:00.000Z", database: "local" as const };
const plan = (...rows: GlobalMemoryRow[]) => planScopeMigration(rows, meta);
const entry = (p: ScopeMigrationPlan, id: string) => p.entries.find((e) => e.nodeId === id);

describe("planScopeMigration", () => {
  it.for([
    [
      "a preference with a known typed session → migrate",
      row("a", "preference", { session_id: "milky:private:10001" }),
      "migrate",
      "milky:private:10001",
    ],
    [
      "a fact from a cron lane → migrate to its chat",
      row("b", "fact", { session: "qq:private:U1:cron:x" }),
      "migrate",
      "qq:private:U1",
    ],
    [
      "a task with a message_context address → migrate",
      row("c", "task", {}, { message_context: { channel: "qq", chat_type: "group", chat_id: "G9" } }),
      "migrate",
      "qq:group:G9",
    ],
    ["a decision → keep", row("d", "decision", { session_id: "milky:private:10001" }), "keep", null],
    ["a procedure → keep", row("e", "procedure", { session_id: "milky:private:10001" }), "keep", null],
    ["no session evidence → keep", row("f", "preference"), "keep", null],
    [
      "only a legacy session → keep",
      row("g", "preference", {}, { source_session_id: "milky:10001" }),
      "keep",
      null,
    ],
    [
      "several chats → manual_review",
      row("h", "fact", { session_id: "milky:private:2" }, { chat_address: "milky:group:1" }),
      "manual_review",
      null,
    ],
    ["an unknown kind → keep", row("i", "gossip", { session_id: "milky:private:2" }), "keep", null],
  ] as const)("%s", ([, r, action, to], { expect }) => {
    expect(plan(r).entries[0]).toMatchObject({ action, to, approval: "pending" });
  });

  it("keeps the reason and the before-state of every row, and counts the actions", ({ expect }) => {
    const p = plan(
      row("a", "preference", { session_id: "milky:private:1" }),
      row("d", "decision"),
      row("h", "fact", { session_id: "qq:private:1", chat_key: "qq:group:2" }),
    );
    expect(p.counts).toEqual({ migrate: 1, keep: 1, manual_review: 1 });
    expect(entry(p, "d")).toMatchObject({
      reason: "global kind",
      before: { scope_type: "global", scope_id: "__global__", status: "active", updated_at: 1000 },
    });
    expect(entry(p, "h")?.chats).toEqual(["qq:group:2", "qq:private:1"]);
  });

  it.for([
    "session_id",
    "source_session_id",
    "created_from_session_id",
    "requester_session_id",
    "chat_address",
    "source_chat_address",
    "created_from_chat_address",
    "target_chat_address",
    "from_chat_address",
  ])("reads the evidence key %s that docs/memory.md lists", (key, { expect }) => {
    expect(evidenceOf(JSON.stringify({ [key]: "qq:group:G1" }), "{}").chats).toEqual(["qq:group:G1"]);
  });

  it("reads no evidence from metadata that is not JSON", ({ expect }) => {
    expect(evidenceOf("not json", "{}")).toEqual({ chats: [], legacy: [] });
  });
});

describe("readScopeMigrationPlan", () => {
  const base = () =>
    JSON.parse(
      JSON.stringify(
        plan(
          row("a", "preference", { session_id: "qq:private:1" }),
          row("h", "fact", { session_id: "qq:private:1", chat_key: "qq:group:2" }),
          row("d", "decision"),
        ),
      ),
    );
  it.for([
    [
      "the wrong kind",
      (p: Record<string, unknown>) => Object.assign(p, { kind: "other" }),
      "not 'akasha.scope-migration'",
    ],
    ["a newer version", (p: Record<string, unknown>) => Object.assign(p, { version: 2 }), "version 2"],
    [
      "another database",
      (p: Record<string, unknown>) => Object.assign(p, { database: "remote" }),
      "made for the remote database",
    ],
    [
      "a bad approval",
      (p: { entries: Record<string, unknown>[] }) => Object.assign(p.entries[0] ?? {}, { approval: "yes" }),
      "approval must be",
    ],
    [
      "a target outside the evidence",
      (p: { entries: Record<string, unknown>[] }) =>
        Object.assign(p.entries[1] ?? {}, { approval: "approved", to: "qq:group:EVIL" }),
      "to must be one of",
    ],
    [
      "an approved manual_review without a target",
      (p: { entries: Record<string, unknown>[] }) =>
        Object.assign(p.entries[1] ?? {}, { approval: "approved" }),
      "needs 'to'",
    ],
    [
      "an approved keep row",
      (p: { entries: Record<string, unknown>[] }) =>
        Object.assign(p.entries[2] ?? {}, { approval: "approved" }),
      "cannot be approved",
    ],
    [
      "an edited before-state",
      (p: { entries: Record<string, unknown>[] }) =>
        Object.assign(p.entries[0] ?? {}, { before: { scope_type: "chat" } }),
      "before-state",
    ],
    ["a duplicated row", (p: { entries: unknown[] }) => p.entries.push(p.entries[0]), "listed twice"],
  ] as const)("refuses a plan with %s", ([, edit, message], { expect }) => {
    const p = base();
    edit(p);
    const read = readScopeMigrationPlan(p, "local");
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error).toContain(message);
  });

  it("accepts the plan inspect wrote", ({ expect }) => {
    expect(readScopeMigrationPlan(base(), "local").ok).toBe(true);
  });
});

describe("selecting and applying", () => {
  const p = plan(
    row("a", "preference", { session_id: "qq:private:1" }),
    row("b", "fact", { session_id: "qq:private:2" }),
    row("h", "fact", { session_id: "qq:private:1", chat_key: "qq:group:2" }),
    row("d", "decision"),
  );
  const edited: ScopeMigrationPlan = {
    ...p,
    entries: p.entries.map((e) =>
      e.nodeId === "a"
        ? { ...e, approval: "approved" }
        : e.nodeId === "h"
          ? { ...e, approval: "approved", to: "qq:group:2" }
          : e,
    ),
  };

  it("applies only approved rows by default, every safe row with --apply-all-safe", ({ expect }) => {
    expect(selectScopeMigration(p, { applyAllSafe: false })).toEqual([]);
    expect(selectScopeMigration(edited, { applyAllSafe: false }).map((e) => e.nodeId)).toEqual(["a", "h"]);
    expect(selectScopeMigration(p, { applyAllSafe: true }).map((e) => e.nodeId)).toEqual(["a", "b"]);
    const rejected = {
      ...p,
      entries: p.entries.map((e) => (e.nodeId === "b" ? { ...e, approval: "rejected" as const } : e)),
    };
    expect(selectScopeMigration(rejected, { applyAllSafe: true }).map((e) => e.nodeId)).toEqual(["a"]);
  });

  it("guards every update with the row's before-state and escapes values", ({ expect }) => {
    const tricky = {
      ...edited.entries[0],
      nodeId: "a'); DROP TABLE nodes; --",
    } as (typeof edited.entries)[number];
    const sql = scopeMigrationApplySql([tricky], 5000);
    expect(sql).toContain(
      "WHERE node_id = 'a''); DROP TABLE nodes; --' AND node_type = 'memory' AND scope_type = 'global'",
    );
    expect(sql).toContain("AND status = 'active' AND updated_at = 1000;");
    expect(sql).toContain("scope_id = 'qq:private:1', updated_at = 5000");
    expect(sql).toContain("INSERT OR IGNORE INTO audit_log");
  });

  it("rolls back only what was applied, guarded by the applied state", ({ expect }) => {
    expect(scopeMigrationRollbackSql(edited, 6000)).toEqual({
      ok: false,
      error: expect.stringContaining("never applied"),
    });
    const applied: ScopeMigrationPlan = {
      ...edited,
      applied: {
        at: "x",
        stamp: 5000,
        nodeIds: ["a"],
        skipped: [],
        backup: { kind: "local-copy", path: "/b", at: "x" },
      },
    };
    const sql = scopeMigrationRollbackSql(applied, 6000);
    expect(sql.ok && sql.value).toContain(
      "UPDATE nodes SET scope_type = 'global', scope_id = '__global__', updated_at = 1000 WHERE node_id = 'a' AND scope_type = 'chat' AND scope_id = 'qq:private:1' AND updated_at = 5000;",
    );
    expect(sql.ok && sql.value.match(/UPDATE nodes/g)).toHaveLength(1);
    const twice = {
      ...applied,
      applied: { ...applied.applied, rolledBack: { at: "y", nodeIds: ["a"], conflicts: [] } },
    } as ScopeMigrationPlan;
    expect(scopeMigrationRollbackSql(twice, 7000)).toEqual({
      ok: false,
      error: expect.stringContaining("already rolled back"),
    });
  });
});
