import { env } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { ChatKey } from "@src/domain/chat/chat-address";
import { it } from "vitest";
import { auditRowsOnceThere } from "../support/identity";
import { uid } from "../support/memory";
import { preview } from "../support/preview";
import { inPlainPrivateChat } from "../support/turns";
import { eventually } from "../support/wait";

/** The chat's audit rows once there are two of them: the reset and the refused second one. */
const resetAudit = (chat: string) => auditRowsOnceThere(chat, undefined, (rows) => rows.length === 2);

it("/reset clears short-term context only, keeps memory, is rate-limited and audited", async ({ expect }) => {
  const user = `UR${uid()}`;
  const chat = `qq:private:${user}`;
  const stub = env.CHAT_SESSION.getByName(chat);
  await inPlainPrivateChat(user, "记住我喜欢爬山");
  await inPlainPrivateChat(user, "今天天气怎么样");
  const before = await stub.stats();
  expect(before.recentTurns).toBe(4);

  const reply = await inPlainPrivateChat(user, "/reset");
  expect(reply).toContain("长期记忆");
  const after = await stub.stats();
  expect(after.recentTurns).toBe(0);
  // Dreaming's journal is not short-term context: it survives the reset.
  expect(after.dreamPending).toBe(before.dreamPending);
  expect((await preview({ chat, text: "我喜欢什么" })).recalled.map((r) => r.text)).toContain(
    `用户${user.slice(0, 4)}喜欢爬山`,
  );
  // The rebuilt context of the next turn has none of the old turns.
  const next = await preview({ chat, text: "继续" });
  expect(JSON.stringify(next.messages)).not.toContain("今天天气怎么样");

  expect(await inPlainPrivateChat(user, "/reset")).toMatch(/请 \d+ 秒后再试/);
  const audit = await resetAudit(chat);
  expect(audit.map((a) => a.action)).toEqual(["session_reset", "session_reset_refused"]);
  expect(audit[0]?.actor).toBe(`qq:user:${user}`);
  expect(audit[0]?.detail).toMatchObject({
    via: "command",
    clearedTurns: 4,
    memoryKept: true,
  });
});

it("session_manage's port resets another chat through its object, rate-limited and audited there", async ({
  expect,
}) => {
  const user = `UM${uid()}`;
  const chat = `qq:private:${user}` as ChatKey;
  const from = `qq:group:G${uid()}` as ChatKey;
  const stub = env.CHAT_SESSION.getByName(chat);
  await inPlainPrivateChat(user, "记住我喜欢下棋");
  expect((await stub.stats()).recentTurns).toBe(2);

  const { otherContexts: sessions } = chatObjectServices.create(env);
  const request = { eventId: `EVT:${uid()}`, actor: "qq:user:ADMIN", via: "tool" as const, from };
  expect(await sessions.reset(chat, request)).toEqual({ ok: true, value: { cleared: 2, repeated: false } });
  expect((await stub.stats()).recentTurns).toBe(0);
  expect((await preview({ chat, text: "我喜欢什么" })).recalled.map((r) => r.text)).toContain(
    `用户${user.slice(0, 4)}喜欢下棋`,
  );
  // A retried turn repeats its event id and gets the same answer; another reset waits a minute.
  expect(await sessions.reset(chat, request)).toMatchObject({ ok: true, value: { repeated: true } });
  expect(await sessions.reset(chat, { ...request, eventId: `EVT:${uid()}` })).toMatchObject({
    ok: false,
    error: { kind: "rate-limited" },
  });

  const audit = await resetAudit(chat);
  expect(audit.map((a) => a.action)).toEqual(["session_reset", "session_reset_refused"]);
  expect(audit[0]?.actor).toBe("qq:user:ADMIN");
  expect(audit[0]?.detail).toEqual({
    via: "tool",
    clearedTurns: 2,
    memoryKept: true,
    from,
  });
});

it("session_manage's port can reset a chat the bot has not seen yet", async ({ expect }) => {
  const chat = `onebot:group:${uid()}` as ChatKey;
  const { otherContexts: sessions } = chatObjectServices.create(env);
  const outcome = await sessions.reset(chat, {
    eventId: `EVT:${uid()}`,
    actor: "qq:user:ADMIN",
    via: "tool",
  });
  expect(outcome).toEqual({ ok: true, value: { cleared: 0, repeated: false } });
  const row = await eventually(
    async () =>
      (await env.DB.prepare("SELECT chat_key FROM audit_log WHERE target = ?").bind(chat).first()) ??
      undefined,
  );
  expect(row).toEqual({ chat_key: chat });
});
