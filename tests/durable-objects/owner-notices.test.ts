// Notices to the owner from the chat objects, through the real webhooks, D1 and objects: a spend
// cap reached in a group makes one notice however often it is hit, pushed once into the OneBot
// admin's own private chat and never into the group; repeated model errors whose message quotes
// the chat and a key make one notice holding neither; on QQ official the notice waits for the
// owner's next private message and never rides a group reply, even the owner's own.
import { env } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { QQ_NOTICE_LATE } from "@src/durable-objects/notice-delivery";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { settleDreams } from "../support/dream-settle";
import { c2cBody, eventIdOf, groupAtBody, postQq, turnDone } from "../support/qq-events";
import { RecordingPushes, sayOneBot } from "../support/reminders";
import { storedSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

const SECRET = "sk-live-9f8e7d6c5b4a3f2e1d0c";
const SAID = "我其实偷偷喜欢隔壁的小红";
const user = () => 100_000 + Math.floor(Math.random() * 800_000_000);
const openid = () => `U${crypto.randomUUID().replaceAll("-", "").slice(0, 16).toUpperCase()}`;

let pushes: RecordingPushes;

function withServices(model: ScriptedChatModel) {
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({
    ...real(e),
    outbound: () => pushes,
    model,
  }));
}

/** The pushes sent with no message to reply to (the owner's notices), once there is one. */
const pushedNotices = () =>
  eventually(async () => {
    const p = pushes.sent.filter((s) => s.reply === "none");
    return p.length > 0 ? p : undefined;
  }, 15_000);

const settings = (layer: Record<string, unknown>) =>
  storedSettings(env).write(JSON.stringify({ calendar: { timeZone: "UTC" }, ...layer }), null, Date.now());

/** The OneBot account `owner` is the admin, and every chat may spend 1,000 tokens a day. */
const ownerWithChatCap = (owner: number) =>
  settings({
    identity: { admins: [`onebot:user:${owner}`] },
    spend: { chatDailyTokens: 1000, globalDailyTokens: null },
  });

type NoticeRow = {
  id: number;
  kind: string;
  subject: string;
  text: string;
  count: number;
  raised_at: number | null;
  notified_at: number | null;
};
const notices = async () =>
  (await env.DB.prepare("SELECT * FROM owner_notices ORDER BY id").all<NoticeRow>()).results;

async function recordUsage(chatKey: string, tokens: number) {
  await env.DB.prepare(
    `INSERT INTO model_usage (dedupe_key, chat_key, provider, model, purpose, prompt_tokens, completion_tokens, latency_ms, ok, at)
     VALUES (?, ?, 'scripted', 'scripted-1', 'turn', ?, 0, 1, 1, ?)`,
  )
    .bind(`seed:${crypto.randomUUID()}`, chatKey, tokens, Date.now())
    .run();
}

async function qqSay(body: string, chat: string) {
  await postQq(body);
  return (await turnDone(chat, eventIdOf(body), 25_000)).replies.map((r) => r.text);
}

beforeEach(async () => {
  pushes = new RecordingPushes();
  await env.DB.prepare("DELETE FROM owner_notices").run();
});

describe("notices to the owner", () => {
  it("a group over its cap makes one notice, pushed once into the OneBot admin's private chat, never the group", async () => {
    const owner = user();
    const group = user();
    withServices(new ScriptedChatModel([{ text: "好的" }]));
    await ownerWithChatCap(owner);
    // The owner has talked to the bot in private: that chat's object knows where it speaks.
    expect(await sayOneBot({ user: owner, text: "/ping" })).toBe("pong");
    await recordUsage(`onebot:group:${group}`, 1000);
    for (const text of ["在吗", "还在吗", "人呢"]) {
      expect(await sayOneBot({ user: user(), group, text })).toContain("已达上限");
    }
    const [row, ...more] = await notices();
    expect(more).toEqual([]);
    expect(row).toMatchObject({ kind: "spend-cap", count: 3 });
    expect(row?.text).toContain(`会话 onebot:group:${group}`);
    const toOwner = await pushedNotices();
    expect(toOwner).toEqual([
      {
        chat: `onebot:private:${owner}`,
        text: expect.stringContaining("【Akasha 运维通知】"),
        reply: "none",
      },
    ]);
    expect(toOwner[0]?.text).toContain(`#${row?.id} 会话 onebot:group:${group}`);
    // Nothing of it went into the group, before or after.
    expect(await sayOneBot({ user: user(), group, text: "再问一次" })).not.toContain("运维通知");
    expect(pushes.sent.filter((s) => s.text.includes("运维通知"))).toHaveLength(1);
    expect(pushes.sent.filter((s) => s.chat.includes("group") && s.text.includes("运维通知"))).toEqual([]);
  });

  it("repeated model errors make one notice without the error's words; on QQ it waits for the owner's private message, not a group one", async () => {
    const owner = openid();
    const group = openid();
    const failing = {
      error: {
        kind: "unavailable" as const,
        message: `upstream echoed: ${SAID} Authorization: Bearer ${SECRET}`,
      },
    };
    withServices(new ScriptedChatModel([failing, failing, failing]));
    await settings({
      identity: { admins: [`qq:user:${owner}`] },
      notices: { modelErrors: 3, windowMinutes: 30, minIntervalMinutes: 10 },
    });
    expect(await qqSay(c2cBody({ user: owner, text: "/ping" }), `qq:private:${owner}`)).toEqual(["pong"]);
    // One group turn: three attempts, three failures, then the apology.
    const member = openid();
    const apology = await qqSay(
      groupAtBody({ group, member, text: `帮我看看 ${SAID}` }),
      `qq:group:${group}`,
    );
    expect(apology.join("\n")).not.toContain("运维通知");
    const rows = await notices();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "model-errors", subject: "scripted:unavailable", count: 3 });
    const told = JSON.stringify(rows);
    for (const leak of [SECRET, "小红", "偷偷", "Bearer"]) expect(told).not.toContain(leak);
    // QQ official cannot push: nothing was sent on its own.
    expect(pushes.sent.filter((s) => s.reply === "none")).toEqual([]);
    // The owner speaking in a group (QQ gives a member openid there, but even the same account
    // in a group is another chat's object) hears nothing of it.
    const inGroup = await qqSay(groupAtBody({ group, member: owner, text: "大家好" }), `qq:group:${group}`);
    expect(inGroup.join("\n")).not.toContain("运维通知");
    // The owner's next private message carries it, saying why it comes now; once.
    const next = await qqSay(c2cBody({ user: owner, text: "你好" }), `qq:private:${owner}`);
    expect(next).toHaveLength(2);
    expect(next[1]).toContain("【Akasha 运维通知】");
    expect(next[1]).toContain("模型服务 scripted 反复出错（unavailable）");
    expect(next[1]).toContain(QQ_NOTICE_LATE);
    for (const leak of [SECRET, "小红"]) expect(next.join("\n")).not.toContain(leak);
    const again = await qqSay(c2cBody({ user: owner, text: "还有吗" }), `qq:private:${owner}`);
    expect(again.join("\n")).not.toContain("运维通知");
  });

  it("waits while no admin has a private chat with the bot, and a group's object refuses a notice", async () => {
    const owner = user();
    const group = user();
    withServices(new ScriptedChatModel([]));
    await ownerWithChatCap(owner);
    await recordUsage(`onebot:group:${group}`, 1000);
    await sayOneBot({ user: user(), group, text: "在吗" });
    const [row] = await notices();
    // The owner's private chat was never seen: the notice waits, untold.
    expect(row).toMatchObject({ kind: "spend-cap", notified_at: null });
    expect(pushes.sent.filter((s) => s.reply === "none")).toEqual([]);
    // Handed straight to a group's object, under the group's own key, it is refused.
    const stub = env.CHAT_SESSION.getByName(`onebot:group:${group}`);
    expect(await stub.deliverNotice(`onebot:group:${group}` as never, { key: "notice:x", text: "t" })).toBe(
      "refused",
    );
    expect(await stub.deliverNotice(`onebot:private:${owner}` as never, { key: "notice:y", text: "t" })).toBe(
      "refused",
    );
  });

  it("tells the owner whose own private chat hit its cap, in that chat, once", async () => {
    const owner = user();
    withServices(new ScriptedChatModel([]));
    await ownerWithChatCap(owner);
    await recordUsage(`onebot:private:${owner}`, 1000);
    expect(await sayOneBot({ user: owner, text: "你好" })).toContain("已达上限");
    expect(await sayOneBot({ user: owner, text: "你好呀" })).toContain("已达上限");
    const told = await pushedNotices();
    expect(told).toEqual([
      {
        chat: `onebot:private:${owner}`,
        text: expect.stringContaining(`会话 onebot:private:${owner}`),
        reply: "none",
      },
    ]);
    expect(await notices()).toMatchObject([{ kind: "spend-cap", count: 2 }]);
  });

  it("a dreaming run whose model fails counts toward the same notice, with none of the chat's words", async () => {
    const member = openid();
    const failing = { error: { kind: "timeout" as const, message: `upstream echoed: ${SAID}` } };
    // The turn's answer, then the dreaming run's extraction, which fails.
    withServices(new ScriptedChatModel([{ text: "好的" }, failing]));
    await settings({
      identity: { admins: [`qq:user:${openid()}`] },
      notices: { modelErrors: 1, windowMinutes: 30, minIntervalMinutes: 10 },
      memory: { dreaming: { afterTurns: 1 } },
    });
    expect(await qqSay(c2cBody({ user: member, text: SAID }), `qq:private:${member}`)).toEqual(["好的"]);
    await settleDreams(`qq:private:${member}`);
    const rows = await eventually(async () => {
      const r = await notices();
      return r.length > 0 ? r : undefined;
    }, 15_000);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "model-errors", subject: "scripted:timeout", count: 1 });
    for (const leak of ["小红", "偷偷", "upstream"]) expect(JSON.stringify(rows)).not.toContain(leak);
  });
});
