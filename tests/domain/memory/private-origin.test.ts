import { originApplySql, originRollbackSql } from "@src/adapters/d1/owner-migrations/private-origin-sql";
import {
  learnedInChat,
  type OriginRow,
  planPrivateOrigin,
  readPrivateOriginPlan,
  selectPrivateOrigin,
} from "@src/domain/memory/private-origin";
import { describe, it } from "vitest";

const row = (node_id: string, over: Partial<OriginRow> = {}): OriginRow => ({
  node_id,
  node_type: "memory",
  kind: "fact",
  scope_type: "person",
  scope_id: "alice",
  status: "active",
  sensitivity: "public",
  sensitivity_source: "dream",
  raw_text: "爱丽丝在准备考研",
  provenance: JSON.stringify({ session: "qq:private:A" }),
  updated_at: 1000,
  ...over,
});
const meta = { createdAt: "t", database: "local" as const };

describe("private-origin plan", () => {
  it("plans public items learned in a private chat, by their session or their chat scope only", ({
    expect,
  }) => {
    const plan = planPrivateOrigin(
      [
        row("person"),
        row("lane", { provenance: JSON.stringify({ session: "qq:private:A:cron:daily" }) }),
        row("chat", { scope_type: "chat", scope_id: "onebot:private:42", provenance: "{}" }),
        row("global", { scope_type: "global", scope_id: "__global__", kind: "decision" }),
        row("summary", { node_type: "summary", scope_type: "chat", scope_id: "qq:private:A" }),
        row("group", {
          scope_type: "chat",
          scope_id: "qq:group:G",
          provenance: JSON.stringify({ session: "qq:group:G" }),
        }),
        row("said-private-in-text", {
          raw_text: "这是私聊里说的",
          provenance: JSON.stringify({ session: "qq:group:G" }),
        }),
        row("already", { sensitivity: "private" }),
        row("archived", { status: "archived" }),
        row("broken", { provenance: "not json" }),
        row("knowledge", { node_type: "passage" }),
      ],
      meta,
    );
    expect(plan.entries.map((e) => [e.nodeId, e.action, e.chat])).toEqual([
      ["person", "make_private", "qq:private:A"],
      ["lane", "make_private", "qq:private:A"],
      ["chat", "make_private", "onebot:private:42"],
      ["global", "review_global", "qq:private:A"],
      ["summary", "make_private", "qq:private:A"],
    ]);
    expect(plan.counts).toEqual({ make_private: 4, review_global: 1 });
    expect(learnedInChat({ scope_type: "chat", scope_id: "qq:group:G", provenance: "{}" })).toBeNull();
  });

  it("moves a global item only when approved; --apply-all-safe takes the make_private rows", ({ expect }) => {
    const plan = planPrivateOrigin(
      [row("a"), row("g", { scope_type: "global", scope_id: "__global__" })],
      meta,
    );
    expect(selectPrivateOrigin(plan, { applyAllSafe: false })).toEqual([]);
    expect(selectPrivateOrigin(plan, { applyAllSafe: true }).map((e) => e.nodeId)).toEqual(["a"]);
    const approved = {
      ...plan,
      entries: plan.entries.map((e) => ({ ...e, approval: e.nodeId === "g" ? "approved" : "rejected" })),
    };
    const read = readPrivateOriginPlan(approved, "local");
    if (!read.ok) throw new Error(read.error);
    const selected = selectPrivateOrigin(read.value, { applyAllSafe: true });
    expect(selected.map((e) => e.nodeId)).toEqual(["g"]);
    const sql = originApplySql(selected, 5000);
    expect(sql).toContain("scope_type = 'chat', scope_id = 'qq:private:A'");
    expect(sql).toContain("AND scope_type = 'global' AND scope_id = '__global__' AND sensitivity = 'public'");
    expect(originRollbackSql(read.value, 6000)).toMatchObject({ ok: false });
  });

  it("refuses edited before-states, unknown actions, a chat that is not private and another database", ({
    expect,
  }) => {
    const plan = planPrivateOrigin(
      [row("a"), row("g", { scope_type: "global", scope_id: "__global__" })],
      meta,
    );
    const edit = (i: number, change: Record<string, unknown>) => ({
      ...plan,
      entries: plan.entries.map((e, j) => (j === i ? { ...e, ...change } : e)),
    });
    expect(readPrivateOriginPlan(edit(0, { action: "make_public" }), "local")).toMatchObject({ ok: false });
    expect(readPrivateOriginPlan(edit(0, { chat: "qq:group:G" }), "local")).toMatchObject({ ok: false });
    expect(readPrivateOriginPlan(edit(0, { action: "review_global" }), "local")).toMatchObject({ ok: false });
    expect(
      readPrivateOriginPlan(
        edit(1, { before: { ...plan.entries[1]?.before, sensitivity: "private" } }),
        "local",
      ),
    ).toMatchObject({ ok: false });
    expect(readPrivateOriginPlan(edit(0, { approval: "yes" }), "local")).toMatchObject({ ok: false });
    expect(readPrivateOriginPlan(plan, "remote")).toMatchObject({ ok: false });
    expect(readPrivateOriginPlan(plan, "local")).toMatchObject({ ok: true });
  });
});
