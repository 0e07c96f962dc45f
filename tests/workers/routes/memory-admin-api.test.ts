// Own file: it edits and forgets memory items and reads the audit log, which every test of a file shares.
import { env } from "cloudflare:workers";
import type { NewMemory } from "@src/domain/memory/memory";
import { forget } from "@src/domain/memory/remember";
import { beforeEach, describe, it } from "vitest";
import { adminApi as api, auditCount } from "../../support/admin-api";
import { session } from "../../support/admin-session";
import { memoryStore, newMemory, nodeColumns, seedMemory, uid } from "../../support/memory";

/** The model's memory_forget of `item` in the file's group: archived, with a candidate row naming it. */
const forgetInChat = (item: NewMemory, runId: string) =>
  forget(memoryStore(), {
    nodeId: item.nodeId,
    scopes: { session: chat, identity: null },
    runId,
    chatKey: chat,
    now: Date.now(),
    reason: "memory_forget",
    how: "archive",
  });

const nodeRow = (id: string) =>
  nodeColumns(
    id,
    "raw_text, kind, importance, sensitivity, sensitivity_source, portable, status, content_hash",
  );

let chat: string;
let ids: { pub: string; priv: string; rule: string; other: string };

beforeEach(async () => {
  chat = `qq:group:G${uid()}`;
  const person = `p${uid()}`;
  const [pub, priv, rule, other] = await seedMemory([
    newMemory(`chat:${chat}`, "喜欢喝乌龙茶", { kind: "preference" }),
    newMemory(`person:${person}`, "生日是三月五号", {
      kind: "fact",
      sensitivity: "private",
      evidence: {
        session: `${chat}:cron:x`,
        messageIds: [],
        account: null,
        person,
        origin: "explicit",
        runId: "r",
      },
    }),
    newMemory(`chat:${chat}`, "群里禁止刷屏", { kind: "rule" }),
    newMemory(`chat:qq:group:G${uid()}`, "另一个群喜欢乌龙茶", { kind: "preference" }),
  ]);
  ids = { pub: pub as string, priv: priv as string, rule: rule as string, other: other as string };
});

describe("memory list", () => {
  it("filters by scope, kind, sensitivity, chat, person, status and text", async ({ expect }) => {
    const list = async (query: string) => {
      const res = await api(`/memory?${query}`);
      expect(res.status, query).toBe(200);
      const body = (await res.json()) as { items: { nodeId: string }[]; total: number };
      return body.items.map((i) => i.nodeId).sort();
    };
    expect(await list(`scope=chat:${chat}`)).toEqual([ids.pub, ids.rule].sort());
    expect(await list(`scope=chat:${chat}&kind=rule`)).toEqual([ids.rule]);
    expect(await list(`chat=${chat}`)).toEqual([ids.pub, ids.priv, ids.rule].sort());
    expect(await list(`chat=${chat}&sensitivity=private`)).toEqual([ids.priv]);
    const person = ((await (await api(`/memory/${ids.priv}`)).json()) as { item: { scope: { id: string } } })
      .item.scope.id;
    expect(await list(`person=${person}`)).toEqual([ids.priv]);
    expect(await list(`chat=${chat}&text=乌龙`)).toEqual([ids.pub]);
    expect(await list(`chat=${chat}&status=archived`)).toEqual([]);
  });

  it.for([
    ["kind=opinion", "kind"],
    ["sensitivity=top", "sensitivity"],
    ["scope=nowhere", "scope"],
    ["limit=0", "limit"],
    ["limit=abc", "limit"],
    ["colour=red", "colour"],
  ] as const)("refuses the filter %s, naming the field %s", async ([query, field], { expect }) => {
    const res = await api(`/memory?${query}`);
    expect(res.status, query).toBe(400);
    expect(await res.json(), query).toMatchObject({ error: "invalid", field });
  });

  it("answers 404 for an unknown item", async ({ expect }) => {
    const res = await api("/memory/m_nothing_here");
    expect(res.status).toBe(404);
  });
});

describe("memory edit", () => {
  it("edits text, kind, importance, sensitivity and portable, re-indexes the text and audits the admin", async ({
    expect,
  }) => {
    const before = await nodeRow(ids.pub);
    const s = await session();
    const res = await api(`/memory/${ids.pub}`, {
      method: "PATCH",
      headers: { authorization: "", cookie: s.cookie, "x-csrf-token": s.csrf },
      body: {
        text: "喜欢喝茉莉花茶",
        kind: "fact",
        importance: 0.9,
        sensitivity: "private",
        portable: false,
      },
    });
    expect(res.status).toBe(200);
    expect(await nodeRow(ids.pub)).toMatchObject({
      raw_text: "喜欢喝茉莉花茶",
      kind: "fact",
      importance: 0.9,
      sensitivity: "private",
      sensitivity_source: "explicit",
      portable: 0,
    });
    expect((await nodeRow(ids.pub))?.content_hash).not.toBe(before?.content_hash);
    const scope = { type: "chat" as const, id: chat };
    const found = await memoryStore().search({ text: "茉莉花", scopes: [scope], limit: 5 });
    expect(found.map((h) => h.nodeId)).toEqual([ids.pub]);
    expect(await memoryStore().search({ text: "乌龙茶", scopes: [scope], limit: 5 })).toEqual([]);
    const audit = await env.DB.prepare(
      "SELECT actor, chat_key, target, detail FROM audit_log WHERE action = 'memory.edit' AND target = ?",
    )
      .bind(`memory:${ids.pub}`)
      .first<{ actor: string; chat_key: string; detail: string }>();
    expect(audit).toMatchObject({ actor: "admin", chat_key: chat });
    expect(audit?.detail).not.toContain("茉莉");
  });

  it("refuses a bad edit with no change and no audit row", async ({ expect }) => {
    const before = await nodeRow(ids.pub);
    const audits = await auditCount();
    for (const [body, field] of [
      [{ importance: 2 }, "importance"],
      [{ kind: "opinion" }, "kind"],
      [{ sensitivity: "top" }, "sensitivity"],
      [{ text: "   " }, "text"],
      [{ portable: "yes" }, "portable"],
      [{ scope: "global:__global__" }, "(body)"],
      [{}, "(body)"],
      ["not json", "(body)"],
    ] as const) {
      const res = await api(`/memory/${ids.pub}`, { method: "PATCH", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json(), JSON.stringify(body)).toMatchObject({ error: "invalid", field });
    }
    expect(await nodeRow(ids.pub)).toEqual(before);
    expect(await auditCount()).toBe(audits);
    expect((await api("/memory/m_nothing_here", { method: "PATCH", body: { importance: 0.1 } })).status).toBe(
      404,
    );
  });
});

describe("archive, restore, forget", () => {
  it("archives an active item and restores it, refusing the wrong transition", async ({ expect }) => {
    expect((await api(`/memory/${ids.rule}/archive`, { method: "POST" })).status).toBe(200);
    expect((await nodeRow(ids.rule))?.status).toBe("archived");
    const again = await api(`/memory/${ids.rule}/archive`, { method: "POST" });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ field: "status" });
    expect((await api(`/memory/${ids.rule}/restore`, { method: "POST" })).status).toBe(200);
    expect((await nodeRow(ids.rule))?.status).toBe("active");
    expect((await api(`/memory/${ids.rule}/restore`, { method: "POST" })).status).toBe(400);
    const actions = await env.DB.prepare("SELECT action, actor FROM audit_log WHERE target = ? ORDER BY id")
      .bind(`memory:${ids.rule}`)
      .all();
    expect(actions.results).toEqual([
      { action: "memory.archive", actor: "admin-api" },
      { action: "memory.restore", actor: "admin-api" },
    ]);
  });

  it("forgets only when the id is repeated, and then keeps no copy of the text", async ({ expect }) => {
    const runId = `run-${uid()}`;
    const item = newMemory(`chat:${chat}`, "我的门禁密码是四个八", { kind: "fact" });
    await memoryStore().commit({
      runId,
      chatKey: chat,
      at: Date.now(),
      writable: [item.scope],
      inserts: [item],
      supersede: [],
      archive: [],
      updates: [],
      candidates: [
        {
          runId,
          chatKey: chat,
          origin: "dream",
          kind: "fact",
          text: item.text,
          scope: item.scope,
          sensitivity: "public",
          sensitivitySource: "default",
          importance: 0.5,
          decision: "insert",
          reason: null,
          nodeId: item.nodeId,
          targetNodeId: null,
          evidence: {},
        },
      ],
    });
    // The model's memory_forget archived it first: its candidate row names the item as its target.
    const archiveRun = `run-${uid()}`;
    const archived = await forgetInChat(item, archiveRun);
    expect(archived.ok).toBe(true);
    expect(await (await api(`/memory/candidates?run=${archiveRun}`)).json()).toMatchObject({
      total: 1,
      candidates: [{ decision: "archive", text: item.text }],
    });
    for (const body of [undefined, {}, { confirm: ids.pub }]) {
      const res = await api(`/memory/${item.nodeId}/forget`, { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await nodeRow(item.nodeId)).not.toBeNull();
    const candidates = await api(`/memory/candidates?run=${runId}`);
    expect(await candidates.json()).toMatchObject({
      total: 1,
      candidates: [{ decision: "insert", text: item.text }],
    });
    const res = await api(`/memory/${item.nodeId}/forget`, {
      method: "POST",
      body: { confirm: item.nodeId },
    });
    expect(res.status).toBe(200);
    expect(await nodeRow(item.nodeId)).toBeNull();
    expect(await (await api(`/memory/candidates?run=${runId}`)).json()).toMatchObject({ total: 0 });
    expect(await (await api(`/memory/candidates?run=${archiveRun}`)).json()).toMatchObject({ total: 0 });
    const fts = await memoryStore().search({ text: "门禁密码", scopes: [item.scope], limit: 5 });
    expect(fts).toEqual([]);
    const audit = await env.DB.prepare(
      "SELECT detail FROM audit_log WHERE action = 'memory.forget' AND target = ?",
    )
      .bind(`memory:${item.nodeId}`)
      .first<{ detail: string }>();
    expect(audit?.detail).not.toContain("门禁");
    expect(
      (await api(`/memory/${item.nodeId}/forget`, { method: "POST", body: { confirm: item.nodeId } })).status,
    ).toBe(404);
  });

  it("refuses a bad candidates filter", async ({ expect }) => {
    const res = await api("/memory/candidates?decision=maybe");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: "decision" });
  });
});

describe("audit log, usage and stats", () => {
  it("filters the audit log by actor, action family, chat and time", async ({ expect }) => {
    await api(`/memory/${ids.pub}/archive`, { method: "POST" });
    await api(`/memory/${ids.pub}/restore`, { method: "POST" });
    const entries = async (query: string) =>
      ((await (await api(`/audit?${query}`)).json()) as { entries: { action: string; chatKey: string }[] })
        .entries;
    const mine = await entries(`chat=${chat}&action=memory.`);
    expect(mine.map((e) => e.action)).toEqual(["memory.restore", "memory.archive"]);
    expect(await entries(`chat=${chat}&action=memory.archive&actor=admin-api`)).toHaveLength(1);
    expect(await entries(`chat=${chat}&actor=someone-else`)).toEqual([]);
    expect(await entries(`chat=${chat}&since=${Date.now() + 60_000}`)).toEqual([]);
    const bad = await api("/audit?since=yesterday-ish");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "since" });
  });

  it("sums model usage per model, day and chat", async ({ expect }) => {
    const model = `test-model-${uid()}`;
    const now = Date.now();
    for (const [i, chatKey, ok] of [
      [1, chat, 1],
      [2, chat, 0],
      [3, "qq:group:elsewhere", 1],
    ] as const) {
      await env.DB.prepare(
        `INSERT INTO model_usage (dedupe_key, chat_key, provider, model, purpose, prompt_tokens, completion_tokens, latency_ms, ok, at)
         VALUES (?, ?, 'workers-ai', ?, 'turn', ?, ?, ?, ?, ?)`,
      )
        .bind(`${model}:${i}`, chatKey, model, 100 * i, 10 * i, 100 * i, ok, now - i)
        .run();
    }
    const usage = (await (await api("/usage?days=1")).json()) as {
      total: { model: string }[];
      byDay: { model: string; day: string; calls: number }[];
      byChat: { model: string; chatKey: string; calls: number; errors: number; promptTokens: number }[];
    };
    expect(usage.total.find((r) => r.model === model)).toMatchObject({
      calls: 3,
      errors: 1,
      promptTokens: 600,
      completionTokens: 60,
      avgLatencyMs: 200,
    });
    expect(usage.byDay.filter((r) => r.model === model).reduce((n, r) => n + r.calls, 0)).toBe(3);
    expect(usage.byChat.find((r) => r.model === model && r.chatKey === chat)).toMatchObject({
      calls: 2,
      errors: 1,
      promptTokens: 300,
    });
    const only = (await (await api(`/usage?days=1&chat=${chat}`)).json()) as {
      total: { model: string; calls: number }[];
    };
    expect(only.total.find((r) => r.model === model)?.calls).toBe(2);
    expect((await api("/usage?days=0")).status).toBe(400);
  });

  it("counts what is stored", async ({ expect }) => {
    const stats = (await (await api("/stats")).json()) as {
      nodes: number;
      memoryByKind: { kind: string; status: string; items: number }[];
      databaseBytes: number | null;
    };
    expect(stats.nodes).toBeGreaterThanOrEqual(4);
    expect(
      stats.memoryByKind.find((r) => r.kind === "rule" && r.status === "active")?.items,
    ).toBeGreaterThanOrEqual(1);
    expect(stats.databaseBytes).toBeGreaterThan(0);
  });
});
