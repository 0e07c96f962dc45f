// Own file: it changes memory rows and reads the audit log, which every test of a file shares.
import { env } from "cloudflare:workers";
import { indexText } from "@src/domain/text/search-tokens";
import { describe, it } from "vitest";
import { adminApi as api, withoutAdmin } from "../../support/admin-api";
import { session } from "../../support/admin-session";
import { uid } from "../../support/memory";

async function globalRow(id: string, kind: string, chat: string | null) {
  await env.DB.prepare(
    `INSERT INTO nodes (node_id, node_type, source_type, scope_type, scope_id, kind, raw_text, retrieval_text, retrieval_tokens,
       metadata, provenance, sensitivity, sensitivity_source, content_hash, created_at, updated_at)
     VALUES (?, 'memory', 'conversation', 'global', '__global__', ?, ?, ?, ?, '{}', ?, 'private', 'default', ?, 1000, 1000)`,
  )
    .bind(
      id,
      kind,
      `记忆 ${id}`,
      `记忆 ${id}`,
      indexText(`记忆 ${id}`),
      JSON.stringify(chat ? { session: chat } : {}),
      `h-${id}`,
    )
    .run();
}
const scopeOf = (id: string) =>
  env.DB.prepare("SELECT scope_type, scope_id, sensitivity FROM nodes WHERE node_id = ?").bind(id).first();
const planRows = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM owner_plans").first<{ n: number }>())?.n ?? 0;

type Plan = {
  id: string;
  plan: { entries: { nodeId: string; action: string }[]; applied?: { nodeIds: string[] } };
};

describe("owner migrations API", () => {
  it.for([
    ["GET", "/migrations/plans"],
    ["POST", "/migrations/plans"],
    ["GET", "/migrations/plans/plan-1-0000abcd"],
    ["POST", "/migrations/plans/plan-1-0000abcd/apply"],
    ["POST", "/migrations/plans/plan-1-0000abcd/rollback"],
  ] as const)("refuses %s %s without an admin", async ([method, path], { expect }) => {
    expect((await withoutAdmin(method, path)).status, `${method} ${path}`).toBe(401);
  });

  it("plans, applies only the approved rows and rolls back, each step audited with the admin", async ({
    expect,
  }) => {
    const chat = `qq:group:G${uid()}`;
    const [a, b] = [`m${uid()}`, `m${uid()}`];
    await globalRow(a, "preference", chat);
    await globalRow(b, "fact", chat);
    const made = await api("/migrations/plans", { method: "POST", body: { kind: "scope-migration" } });
    expect(made.status).toBe(201);
    const plan = (await made.json()) as Plan;
    expect(plan.plan.entries.filter((e) => e.nodeId === a || e.nodeId === b).map((e) => e.action)).toEqual([
      "migrate",
      "migrate",
    ]);
    expect(await scopeOf(a)).toMatchObject({ scope_type: "global" });

    const s = await session();
    const applied = await api(`/migrations/plans/${plan.id}/apply`, {
      method: "POST",
      headers: { authorization: "", cookie: s.cookie, "x-csrf-token": s.csrf },
      body: { approve: [{ nodeId: a }] },
    });
    expect(applied.status).toBe(200);
    expect(((await applied.json()) as Plan).plan.applied?.nodeIds).toEqual([a]);
    expect(await scopeOf(a)).toMatchObject({ scope_type: "chat", scope_id: chat });
    expect(await scopeOf(b)).toMatchObject({ scope_type: "global" });
    const audit = await env.DB.prepare(
      "SELECT actor FROM audit_log WHERE action = 'scope_migration_apply' ORDER BY id DESC LIMIT 1",
    ).first();
    expect(audit).toEqual({ actor: "admin" });

    const again = await api(`/migrations/plans/${plan.id}/apply`, {
      method: "POST",
      body: { approve: [{ nodeId: a }] },
    });
    expect(again.status).toBe(400);

    const rolled = await api(`/migrations/plans/${plan.id}/rollback`, { method: "POST" });
    expect(rolled.status).toBe(200);
    expect(await scopeOf(a)).toMatchObject({ scope_type: "global", scope_id: "__global__" });
    expect(
      await env.DB.prepare(
        "SELECT actor FROM audit_log WHERE action = 'scope_migration_rollback' ORDER BY id DESC LIMIT 1",
      ).first(),
    ).toEqual({ actor: "admin-api" });
  });

  it("refuses CSRF-less cookie requests and bad input, changing nothing", async ({ expect }) => {
    const id = `m${uid()}`;
    await globalRow(id, "fact", null);
    const s = await session();
    const before = await planRows();
    const csrfLess = await api("/migrations/plans", {
      method: "POST",
      headers: { authorization: "", cookie: s.cookie },
      body: { kind: "sensitivity-backfill" },
    });
    expect(csrfLess.status).toBe(403);
    expect((await api("/migrations/plans", { method: "POST", body: { kind: "drop-tables" } })).status).toBe(
      400,
    );
    expect(await planRows()).toBe(before);

    const plan = (await (
      await api("/migrations/plans", { method: "POST", body: { kind: "sensitivity-backfill" } })
    ).json()) as Plan;
    for (const body of [{ approve: [] }, { approve: [{ nodeId: "not-in-plan" }] }, { approve: "all" }]) {
      const res = await api(`/migrations/plans/${plan.id}/apply`, { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await api("/migrations/plans/nope/apply", { method: "POST", body: { approve: [{ nodeId: id }] } }))
        .status,
    ).toBe(400);
    expect((await api(`/migrations/plans/${plan.id}/rollback`, { method: "POST" })).status).toBe(400);
    expect(await scopeOf(id)).toMatchObject({ sensitivity: "private" });
    expect(((await (await api(`/migrations/plans/${plan.id}`)).json()) as Plan).plan.applied).toBeUndefined();
  });
});
