// Own file: it adds and moves memory items and counts audit rows, which every test of a file
// shares. An admin adds an item to any scope — global only this way — and moves one to
// another scope; a private or secret item lands in a shared scope (global, a group) only with
// an explicit confirmation, which is audited; bad input is refused naming the field and
// changes nothing (docs/invariants.md#admins-place-memory-on-purpose).
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, it } from "vitest";
import { dashboardPage, session } from "../support/admin-session";
import { newMemory, seedMemory, uid } from "../support/memory";

const TOKEN = "test-admin-token";

function api(path: string, body: unknown, headers: Record<string, string> = {}) {
  return exports.default.fetch(
    new Request(`https://bot.test/api${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

type NodeRow = {
  node_id: string;
  scope: string;
  sensitivity: string;
  sensitivity_source: string;
  status: string;
};
const byText = (text: string) =>
  env.DB.prepare(
    "SELECT node_id, scope_type || ':' || scope_id AS scope, sensitivity, sensitivity_source, status FROM nodes WHERE node_type = 'memory' AND raw_text = ?",
  )
    .bind(text)
    .all<NodeRow>()
    .then((r) => r.results);
const byId = (id: string) =>
  env.DB.prepare(
    "SELECT node_id, scope_type || ':' || scope_id AS scope, sensitivity, sensitivity_source, status FROM nodes WHERE node_id = ?",
  )
    .bind(id)
    .first<NodeRow>();
async function counts() {
  const n = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM nodes) AS nodes, (SELECT count(*) FROM audit_log) AS audit",
  ).first<{ nodes: number; audit: number }>();
  return n;
}
async function audits(nodeId: string) {
  const { results } = await env.DB.prepare(
    "SELECT action, detail FROM audit_log WHERE target = ? ORDER BY id",
  )
    .bind(`memory:${nodeId}`)
    .all<{ action: string; detail: string }>();
  return results.map((r) => ({ action: r.action, ...(JSON.parse(r.detail) as Record<string, unknown>) }));
}

// The Worker's first request in a file starts it cold; that wait is not the first test's.
beforeAll(async () => {
  await exports.default.fetch(
    new Request("https://bot.test/api/memory?limit=1", { headers: { authorization: `Bearer ${TOKEN}` } }),
  );
}, 120_000);

describe("POST /api/memory adds an item to any scope", () => {
  it.for([
    ["global:__global__", "public"],
    [`chat:qq:group:G${uid()}`, "public"],
    [`chat:qq:private:U${uid()}`, "secret_like"],
    [`person:p${uid()}`, "private"],
    [`account:qq:user:U${uid()}`, "secret_like"],
  ] as const)("into %s, tagged explicit and audited", async ([scope, sensitivity], { expect }) => {
    const text = `管理员添加的记忆 ${uid()}`;
    const res = await api("/memory", { scope, text, kind: "fact", sensitivity });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { item: { nodeId: string }; confirmedShared: boolean };
    expect(body.confirmedShared).toBe(false);
    const rows = await byText(text);
    expect(rows.map((r) => [r.node_id, r.scope, r.sensitivity, r.sensitivity_source, r.status])).toEqual([
      [body.item.nodeId, scope, sensitivity, "explicit", "active"],
    ]);
    expect(await audits(body.item.nodeId)).toEqual([
      expect.objectContaining({ action: "memory.add", to: scope, sensitivity, confirmedShared: false }),
    ]);
  });

  it("puts a private or secret item into a shared scope only on an explicit confirmation, audited", async ({
    expect,
  }) => {
    for (const scope of ["global:__global__", `chat:qq:group:G${uid()}`, `chat:qq:channel:C${uid()}`]) {
      for (const sensitivity of ["private", "secret_like"] as const) {
        const text = `不该公开的事 ${uid()}`;
        const before = await counts();
        const refused = await api("/memory", { scope, text, kind: "fact", sensitivity });
        expect({ scope, sensitivity, status: refused.status }).toEqual({ scope, sensitivity, status: 409 });
        expect(((await refused.json()) as { reason: string }).reason).toContain("confirmShared");
        expect(await counts()).toEqual(before);
        const confirmed = await api("/memory", {
          scope,
          text,
          kind: "fact",
          sensitivity,
          confirmShared: true,
        });
        expect(confirmed.status).toBe(201);
        const { item } = (await confirmed.json()) as { item: { nodeId: string } };
        expect((await byId(item.nodeId))?.scope).toBe(scope);
        expect(await audits(item.nodeId)).toEqual([
          expect.objectContaining({ action: "memory.add", sensitivity, confirmedShared: true }),
        ]);
      }
    }
  });

  it.for([
    ["a knowledge collection", { scope: "collection:docs" }],
    ["a global scope with another id", { scope: "global:elsewhere" }],
    ["a chat scope that is no chat key", { scope: "chat:qq:G1" }],
    ["a malformed account", { scope: "account:qq:U1" }],
    ["no scope type", { scope: "qq:group:G1" }],
    ["a person id with spaces", { scope: "person:a b" }],
    ["an empty text", { text: "  " }],
    ["a password", { text: "群 wifi 密码是 coffee4all" }],
    ["an unknown kind", { kind: "secret" }],
    ["an importance above 1", { importance: 2 }],
    ["a confirmation as a string", { confirmShared: "yes" }],
    ["an unknown field", { global: true }],
    ["a text of 3000 characters", { text: "长".repeat(3000) }],
  ] as const)("refuses %s, naming the field, and changes nothing", async ([, change], { expect }) => {
    const body = { scope: `chat:qq:group:G${uid()}`, text: `正常的记忆 ${uid()}`, kind: "fact", ...change };
    const before = await counts();
    const res = await api("/memory", body);
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { error: string; field: string };
    expect(problem.error).toBe("invalid");
    expect(problem.field).not.toBe("");
    expect(await counts()).toEqual(before);
  });

  it("refuses a body that is not JSON and changes nothing", async ({ expect }) => {
    const before = await counts();
    expect((await api("/memory", "{scope:", {})).status).toBe(400);
    expect((await api("/memory", "scope=global", { "content-type": "text/plain" })).status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it("says so when the text is already there or the chat's storage is off, and records nothing", async ({
    expect,
  }) => {
    const scope = `chat:qq:group:G${uid()}`;
    const text = `重复的记忆 ${uid()}`;
    const first = await api("/memory", { scope, text, kind: "fact" });
    const { item } = (await first.json()) as { item: { nodeId: string } };
    const before = await counts();
    const again = await api("/memory", { scope, text, kind: "fact" });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { reason: string }).reason).toContain(item.nodeId);
    expect(await counts()).toEqual(before);

    const off = `qq:group:G${uid()}`;
    await env.DB.prepare(
      "INSERT INTO chat_sessions (chat_key, session_id, cluster_id, store_enabled, created_at, updated_at) VALUES (?1, ?2, ?2, 0, 0, 0)",
    )
      .bind(off, `s_${uid()}`)
      .run();
    const stored = await api("/memory", {
      scope: `chat:${off}`,
      text: `存不下的记忆 ${uid()}`,
      kind: "fact",
    });
    expect(stored.status).toBe(409);
    expect(((await stored.json()) as { reason: string }).reason).toContain("storage is off");
    expect(await counts()).toEqual(before);
  });
});

describe("POST /api/memory/:id/move moves an item to another scope", () => {
  it("moves a public item anywhere, global included, and audits where from and to", async ({ expect }) => {
    const [id] = await seedMemory([newMemory(`chat:qq:group:G${uid()}`, `公开的群规 ${uid()}`)]);
    const res = await api(`/memory/${id}/move`, { scope: "global:__global__" });
    expect(res.status).toBe(200);
    expect((await byId(id as string))?.scope).toBe("global:__global__");
    expect(await audits(id as string)).toEqual([
      expect.objectContaining({ action: "memory.move", to: "global:__global__", confirmedShared: false }),
    ]);
  });

  it("moves a private item into a group only on an explicit confirmation, audited", async ({ expect }) => {
    const person = `person:p${uid()}`;
    const group = `chat:qq:group:G${uid()}`;
    const [id] = await seedMemory([newMemory(person, `私下说的事 ${uid()}`, { sensitivity: "private" })]);
    const before = await counts();
    for (const scope of [group, "global:__global__"]) {
      const refused = await api(`/memory/${id}/move`, { scope });
      expect(refused.status).toBe(409);
      // A stable code beside the reason: the CLI says the refusal in its own language from it.
      expect(await refused.json()).toMatchObject({ error: "conflict", code: "shared-needs-confirm" });
    }
    expect((await byId(id as string))?.scope).toBe(person);
    expect(await counts()).toEqual(before);
    // Into another private scope needs no confirmation: nobody else listens there.
    const privately = `chat:qq:private:U${uid()}`;
    expect((await api(`/memory/${id}/move`, { scope: privately })).status).toBe(200);
    const confirmed = await api(`/memory/${id}/move`, { scope: group, confirmShared: true });
    expect(confirmed.status).toBe(200);
    expect(await byId(id as string)).toEqual(
      expect.objectContaining({ scope: group, sensitivity: "private" }),
    );
    expect(await audits(id as string)).toEqual([
      expect.objectContaining({ action: "memory.move", from: person, to: privately, confirmedShared: false }),
      expect.objectContaining({ action: "memory.move", from: privately, to: group, confirmedShared: true }),
    ]);
  });

  it("refuses an unknown item, the same scope, an archived item and a bad scope, and changes nothing", async ({
    expect,
  }) => {
    const scope = `chat:qq:group:G${uid()}`;
    const [id, archived] = await seedMemory([
      newMemory(scope, `原地 ${uid()}`),
      newMemory(scope, `已归档 ${uid()}`),
    ]);
    await env.DB.prepare("UPDATE nodes SET status = 'archived' WHERE node_id = ?").bind(archived).run();
    const before = await counts();
    const cases: [string, unknown, number][] = [
      [`m_nothere${uid()}`, { scope: "global:__global__" }, 404],
      [id as string, { scope }, 400],
      [archived as string, { scope: "global:__global__" }, 400],
      [id as string, { scope: "collection:docs" }, 400],
      [id as string, { scope: "global:__global__", confirmShared: 1 }, 400],
      [id as string, {}, 400],
      ["bad id!", { scope: "global:__global__" }, 400],
    ];
    for (const [target, body, status] of cases) {
      const res = await api(`/memory/${encodeURIComponent(target)}/move`, body);
      expect({ target, body, status: res.status }).toEqual({ target, body, status });
    }
    expect((await byId(id as string))?.scope).toBe(scope);
    expect(await counts()).toEqual(before);
  });
});

describe("the Memory page's add and move forms", () => {
  const post = (path: string, fields: Record<string, string>) =>
    dashboardPage(`/admin/memory${path}`, fields);

  it("adds through the same service, refusing a secret in a group unless 'share anyway' is ticked", async ({
    expect,
  }) => {
    const scope = `chat:qq:group:G${uid()}`;
    const text = `表单添加的秘密 ${uid()}`;
    const fields = { scope, text, kind: "fact", sensitivity: "secret_like", importance: "0.7" };
    const before = await counts();
    const refused = await post("/add", fields);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("没有添加");
    expect(await counts()).toEqual(before);
    const added = await post("/add", { ...fields, confirmShared: "true" });
    expect(added.status).toBe(303);
    expect(decodeURIComponent(added.headers.get("location") ?? "")).toContain("按你的确认共享");
    const [row] = await byText(text);
    expect(row).toEqual(expect.objectContaining({ scope, sensitivity: "secret_like" }));
    expect(await audits(row?.node_id ?? "")).toEqual([
      expect.objectContaining({ action: "memory.add", via: "dashboard", confirmedShared: true }),
    ]);
  });

  it("moves through the same service and shows a bad scope as an error", async ({ expect }) => {
    const [id] = await seedMemory([newMemory(`person:p${uid()}`, `表单移动 ${uid()}`)]);
    const bad = await post(`/${id}/move`, { scope: "collection:docs" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("没有移动");
    const moved = await post(`/${id}/move`, { scope: "global:__global__" });
    expect(moved.status).toBe(303);
    expect((await byId(id as string))?.scope).toBe("global:__global__");
  });

  it("renders the add form and a move form per active item", async ({ expect }) => {
    const s = await session();
    const page = await exports.default.fetch(
      new Request("https://bot.test/admin/memory", { headers: { cookie: s.cookie } }),
    );
    const html = await page.text();
    expect(html).toContain('action="/admin/memory/add"');
    expect(html).toContain('name="confirmShared"');
  });
});
