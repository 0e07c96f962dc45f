// Daily token caps in the chat object: checked before the model is called, against D1's
// usage counters plus the chat's unflushed calls; dreaming over a cap waits for the next day.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { settingsCache } from "@src/composition/settings/settings-cache";
import { ManualClock } from "@src/domain/kernel/clock";
import { NAMING_WAIT_MS } from "@src/domain/privacy/named-afterwards";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { describe, it, vi } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { adminApi } from "../support/admin-api";
import { auditRowsOnceThere } from "../support/identity";
import { c2cBody, eventIdOf, groupAtBody, postQq, turnDone } from "../support/qq-events";
import { eventually } from "../support/wait";

const uid = () => crypto.randomUUID().replaceAll("-", "").slice(0, 12).toUpperCase();

async function setSpend(spend: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  await env.DB.prepare("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('config', ?, ?)")
    .bind(JSON.stringify({ spend, calendar: { timeZone: "UTC" }, ...extra }), Date.now())
    .run();
  // A raw write bypasses the settings store, so the isolate's cached copy is dropped by hand.
  settingsCache.invalidate();
}

async function recordUsage(chatKey: string, tokens: number, at = Date.now()) {
  await env.DB.prepare(
    `INSERT INTO model_usage (dedupe_key, chat_key, provider, model, purpose, prompt_tokens, completion_tokens, latency_ms, ok, at)
     VALUES (?, ?, 'scripted', 'scripted-1', 'turn', ?, 0, 1, 1, ?)`,
  )
    .bind(`seed:${crypto.randomUUID()}`, chatKey, tokens, at)
    .run();
}

function withModel(model: ScriptedChatModel, clock?: ManualClock) {
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({
    ...real(e),
    model,
    ...(clock ? { clock } : {}),
  }));
}

async function privateTurn(user: string, text: string) {
  const body = c2cBody({ user, text });
  await postQq(body);
  return turnDone(`qq:private:${user}`, eventIdOf(body));
}

const usageRows = async (chatKey: string) =>
  (
    await env.DB.prepare(
      "SELECT purpose, prompt_tokens, completion_tokens FROM model_usage WHERE chat_key = ?",
    )
      .bind(chatKey)
      .all()
  ).results;

describe("spend caps", () => {
  it("a chat over its cap gets the brief reply, the model is not called, the refusal is audited", async ({
    expect,
  }) => {
    await setSpend({ chatDailyTokens: 1000, globalDailyTokens: null });
    const user = `U${uid()}`;
    const chat = `qq:private:${user}`;
    await recordUsage(chat, 1000);
    const model = new ScriptedChatModel([{ text: "不该出现" }]);
    withModel(model);
    const status = await privateTurn(user, "你好");
    expect(status.replies).toEqual([
      { text: expect.stringContaining("这个聊天今天的模型用量已达上限（1000 tokens）"), state: "sent" },
    ]);
    expect(model.requests).toHaveLength(0);
    const audit = await auditRowsOnceThere(
      chat,
      (r) => r.action === "spend.capped",
      (rows) => rows.length === 1,
    );
    expect(audit[0]).toMatchObject({
      actor: `qq:user:${user}`,
      target: chat,
      detail: { outcome: "refused", purpose: "turn", scope: "chat", used: 1000, cap: 1000 },
    });
    // Commands do not need the model and keep working.
    expect((await privateTurn(user, "/ping")).replies).toEqual([{ text: "pong", state: "sent" }]);
  });

  it("counts the chat's own calls, flushed or not, until the cap is reached; every call is recorded", async ({
    expect,
  }) => {
    await setSpend({ chatDailyTokens: 20, globalDailyTokens: null });
    const user = `U${uid()}`;
    const chat = `qq:private:${user}`;
    // Each scripted call reports 10 + 5 tokens: 0 → allowed, 15 → allowed, 30 → capped.
    const model = new ScriptedChatModel([{ text: "一" }, { text: "二" }, { text: "三" }]);
    withModel(model);
    expect((await privateTurn(user, "第一")).replies.map((r) => r.text)).toEqual(["一"]);
    expect((await privateTurn(user, "第二")).replies.map((r) => r.text)).toEqual(["二"]);
    const third = await privateTurn(user, "第三");
    expect(third.replies[0]?.text).toContain("已达上限（20 tokens）");
    expect(model.requests).toHaveLength(2);
    const rows = await eventually(async () => {
      const r = await usageRows(chat);
      return r.length === 2 ? r : undefined;
    });
    expect(rows).toEqual([
      { purpose: "turn", prompt_tokens: 10, completion_tokens: 5 },
      { purpose: "turn", prompt_tokens: 10, completion_tokens: 5 },
    ]);
  });

  it("the global cap stops every chat", async ({ expect }) => {
    await setSpend({ chatDailyTokens: null, globalDailyTokens: 10 });
    await recordUsage(`qq:group:OTHER${uid()}`, 10);
    const model = new ScriptedChatModel([{ text: "不该出现" }, { text: "不该出现" }]);
    withModel(model);
    const a = await privateTurn(`U${uid()}`, "你好");
    const group = `G${uid()}`;
    const body = groupAtBody({ group, member: `M${uid()}`, text: "在吗" });
    await postQq(body);
    const b = await turnDone(`qq:group:${group}`, eventIdOf(body));
    for (const s of [a, b]) expect(s.replies[0]?.text).toContain("所有聊天的模型用量已达上限（10 tokens）");
    expect(model.requests).toHaveLength(0);
  });

  it("dreaming over the cap waits for the next day, keeps its journal, then runs", async ({ expect }) => {
    await setSpend(
      { chatDailyTokens: 100, globalDailyTokens: null },
      { memory: { dreaming: { afterTurns: 2 } } },
    );
    const user = `U${uid()}`;
    const chat = `qq:private:${user}`;
    const clock = new ManualClock(Date.now());
    const model = new ScriptedChatModel([
      { text: "好的" },
      { text: JSON.stringify({ memories: [], archive: [], summary: null }) },
    ]);
    withModel(model, clock);
    // The turn spends 15; the chat then reaches its cap from elsewhere (a dreaming run of the
    // same day, say) before dreaming is due.
    expect((await privateTurn(user, "我喜欢爬山")).replies.map((r) => r.text)).toEqual(["好的"]);
    await recordUsage(chat, 100, clock.now());
    const stub = env.CHAT_SESSION.getByName(chat);
    expect((await privateTurn(user, "我是老师")).replies[0]?.text).toContain("已达上限");
    // Past a naming's wait (and the real seconds the turns took, which stamp the replies), the
    // turns are due for dreaming, and the cap defers the run.
    clock.advance(NAMING_WAIT_MS + 60_000);
    await runInDurableObject(stub, (_o: ChatSession, state) => state.storage.setAlarm(Date.now()));
    await runDurableObjectAlarm(stub);
    const deferred = await auditRowsOnceThere(chat, (r) => r.detail.purpose === "dream");
    expect(deferred[0]).toMatchObject({
      action: "spend.capped",
      detail: { outcome: "refused", scope: "chat" },
    });
    expect(model.requests).toHaveLength(1);
    expect((await stub.stats()).dreamPending).toBeGreaterThan(0);
    const until = await runInDurableObject(stub, (_o: ChatSession, state) =>
      state.storage.sql
        .exec<{ value: string }>("SELECT value FROM meta WHERE key = 'dream_spend_deferred'")
        .one(),
    );
    // An alarm today changes nothing: the pass is still deferred, no model call.
    await runDurableObjectAlarm(stub);
    expect(model.requests).toHaveLength(1);
    // The next day (UTC, as configured) the pass runs and consumes the journal.
    clock.advance(JSON.parse(until.value).until - clock.now() + 1);
    await runInDurableObject(stub, (_o: ChatSession, state) => state.storage.setAlarm(Date.now()));
    await runDurableObjectAlarm(stub);
    await eventually(async () => (await stub.stats()).dreamPending === 0, 10_000, "journal consumed");
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.jsonSchema?.name).toBe("memory_extraction");
  });

  it("invalid cap settings are refused with the field named and nothing changes", async ({ expect }) => {
    await setSpend({ chatDailyTokens: 1234 });
    const before = await env.DB.prepare(
      "SELECT value, updated_at FROM settings WHERE key = 'config'",
    ).first();
    for (const [spend, field] of [
      [{ chatDailyTokens: -1 }, "spend.chatDailyTokens"],
      [{ globalDailyTokens: "many" }, "spend.globalDailyTokens"],
      [{ timeZone: "UTC" }, "spend"],
    ] as const) {
      const res = await adminApi("/settings", { method: "PUT", body: { spend } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid", field });
    }
    expect(
      await env.DB.prepare("SELECT value, updated_at FROM settings WHERE key = 'config'").first(),
    ).toEqual(before);
  });

  it("the usage API shows the caps and today's spend against them", async ({ expect }) => {
    await setSpend({ chatDailyTokens: 50, globalDailyTokens: 1_000_000_000 });
    const chat = `qq:group:USAGE${uid()}`;
    await recordUsage(chat, 70);
    const res = await adminApi(`/usage?chat=${encodeURIComponent(chat)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { spend: Record<string, unknown> };
    expect(body.spend).toMatchObject({
      timeZone: "UTC",
      day: new Date().toISOString().slice(0, 10),
      chatDailyTokens: 50,
      globalDailyTokens: 1_000_000_000,
      global: { cap: 1_000_000_000, capped: false },
      chats: [{ chatKey: chat, calls: 1, tokens: 70, cap: 50, capped: true }],
    });
  });
});
