/**
 * Credentials through the real webhooks and turn path: what arrives is masked before the
 * chat object stores it or the model sees it, the bot's replies are masked, and nothing
 * carrying a secret reaches memory — explicit, tool or dreaming.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { describe, it, vi } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { REFUSED } from "../support/credential-paths";
import { settleDreams } from "../support/dream-settle";
import { uid } from "../support/memory";
import { logQuery } from "../support/object-log";
import { atBot, oneBotMessage } from "../support/onebot-events";
import { signedOneBotRequest } from "../support/onebot-signing";
import { c2cBody, eventIdOf, postQq, turnDone } from "../support/qq-events";
import { underStoredSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

const OPENAI_KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z-Q7rS0tU";
const QQ_PASSWORD = "Qq778899";

// Dreaming after 2 waiting turns, so that the dreaming path is exercised too.
underStoredSettings(env, { memory: { dreaming: { afterTurns: 2 } } });

type LogRow = { direction: string; text: string; raw_json: string | null };
const logRows = async (chatKey: string) =>
  logQuery<LogRow>(chatKey, "SELECT direction, text, raw_json FROM messages ORDER BY ts, seq");

const memoryTexts = async (chatKey: string) =>
  (
    await env.DB.prepare("SELECT raw_text FROM nodes WHERE scope_id = ? AND node_type = 'memory'")
      .bind(chatKey)
      .all<{ raw_text: string }>()
  ).results.map((r) => r.raw_text);

/** Everything the chat object keeps in its own SQLite: inbox payloads, recent turns, journal. */
async function objectState(chatKey: string): Promise<string> {
  const stub = env.CHAT_SESSION.getByName(chatKey) as DurableObjectStub<ChatSession>;
  return runInDurableObject(stub, async (_o, state) => {
    const sql = state.storage.sql;
    const dump = (q: string) => JSON.stringify(sql.exec(q).toArray());
    return [
      dump("SELECT payload FROM inbox"),
      dump("SELECT text FROM recent_turns"),
      dump("SELECT * FROM dream_journal"),
    ].join("\n");
  });
}

const scripted = (model: ScriptedChatModel) => {
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model }));
};

const logged = (chatKey: string, n: number) =>
  eventually(async () => {
    const r = await logRows(chatKey);
    return r.length === n ? r : undefined;
  });

describe("credentials in chat", () => {
  it("masks a key and a password in the log, raw_json, recent turns, the model's input and the reply", async ({
    expect,
  }) => {
    // The model quotes the secret back, as if it had found it somewhere: the reply is masked too.
    const model = new ScriptedChatModel([{ text: `收到，你的新 key 是 ${OPENAI_KEY}` }, { text: "好的" }]);
    scripted(model);
    const user = `UC${uid()}`;
    const chatKey = `qq:private:${user}`;
    const first = c2cBody({ user, text: `我的QQ密码改成了 ${QQ_PASSWORD}，新 key 是 ${OPENAI_KEY}` });
    expect((await postQq(first)).status).toBe(200);
    const status = await turnDone(chatKey, eventIdOf(first));
    const second = c2cBody({ user, text: "还记得我刚才说的吗" });
    await postQq(second);
    await turnDone(chatKey, eventIdOf(second));

    // The model never received either secret, in the current turn or as recent context.
    const sentToModel = JSON.stringify(model.requests.map((r) => r.messages));
    // Two turns, then dreaming's extractor: none of them got a secret.
    expect(model.requests.length).toBeGreaterThanOrEqual(2);
    expect(sentToModel).not.toContain(QQ_PASSWORD);
    expect(sentToModel).not.toContain(OPENAI_KEY);
    expect(model.requests[0]?.messages.at(-1)?.content).toBe(
      `我的QQ密码改成了 ${CREDENTIAL_MASK}，新 key 是 ${CREDENTIAL_MASK}`,
    );
    expect(JSON.stringify(model.requests[1]?.messages)).toContain(`我的QQ密码改成了 ${CREDENTIAL_MASK}`);

    // The reply that went out does not echo the key.
    expect(status.replies).toEqual([{ text: `收到，你的新 key 是 ${CREDENTIAL_MASK}`, state: "sent" }]);

    const rows = await logged(chatKey, 4);
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(QQ_PASSWORD);
    expect(everything).not.toContain(OPENAI_KEY);
    expect(rows[0]?.text).toBe(`我的QQ密码改成了 ${CREDENTIAL_MASK}，新 key 是 ${CREDENTIAL_MASK}`);
    // raw_json keeps the envelope's ids intact and its text masked.
    const raw = JSON.parse(rows[0]?.raw_json ?? "null") as { id: string; d: { id: string; content: string } };
    expect(raw.id).toBe(eventIdOf(first));
    expect(raw.d.id).toBe((JSON.parse(first) as { d: { id: string } }).d.id);
    expect(raw.d.content).toContain(CREDENTIAL_MASK);
    expect(rows[1]).toMatchObject({ direction: "out", text: `收到，你的新 key 是 ${CREDENTIAL_MASK}` });

    const state = await objectState(chatKey);
    expect(state).toContain(CREDENTIAL_MASK);
    expect(state).not.toContain(QQ_PASSWORD);
    expect(state).not.toContain(OPENAI_KEY);
  });

  it("refuses /remember of a password and stores nothing", async ({ expect }) => {
    const user = `UR${uid()}`;
    const chatKey = `qq:private:${user}`;
    const body = c2cBody({ user, text: `/remember 我的QQ密码改成了 ${QQ_PASSWORD}` });
    await postQq(body);
    const status = await turnDone(chatKey, eventIdOf(body));
    expect(status.replies).toEqual([{ text: REFUSED, state: "sent" }]);
    expect(await memoryTexts(chatKey)).toEqual([]);
    expect(JSON.stringify(await logged(chatKey, 2))).not.toContain(QQ_PASSWORD);
  });

  it.for([
    ["邮箱密码 mail2024!", "mail2024!"],
    ["wifi 密码 88888888", "88888888"],
    ["pwd X7yz!abc", "X7yz!abc"],
    ["服务器 root 口令 R00t@2024", "R00t@2024"],
  ])("refuses /remember %s", async ([text, secret], { expect }) => {
    const user = `UR${uid()}`;
    const chatKey = `qq:private:${user}`;
    const body = c2cBody({ user, text: `/remember ${text}` });
    await postQq(body);
    const status = await turnDone(chatKey, eventIdOf(body));
    expect(status.replies[0]?.text).toBe(REFUSED);
    expect(await memoryTexts(chatKey)).toEqual([]);
    expect(JSON.stringify(await logged(chatKey, 2))).not.toContain(secret);
  });

  it("refuses memory_write of a token and tells the model why", async ({ expect }) => {
    const args = { kind: "fact", text: `用户的 GitHub token 是 ghp_0123456789abcdefghijABCDEFGHIJ` };
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: "c1", name: "memory_write", arguments: JSON.stringify(args) }] },
      { text: "这个我不能记。" },
    ]);
    scripted(model);
    const user = `UT${uid()}`;
    const chatKey = `qq:private:${user}`;
    const body = c2cBody({ user, text: "你看看这个 token 要不要存" });
    await postQq(body);
    await turnDone(chatKey, eventIdOf(body));
    const toolReply = model.requests[1]?.messages.find((m) => m.role === "tool");
    expect(toolReply?.content).toContain("没有写入");
    expect(await memoryTexts(chatKey)).toEqual([]);
  });

  it("drops dreaming candidates that carried a secret, keeps the rest", async ({ expect }) => {
    const user = `UD${uid()}`;
    const chatKey = `qq:private:${user}`;
    for (const text of ["我喜欢爬山", "我的邮箱密码是 mail2024!"]) {
      const body = c2cBody({ user, text });
      await postQq(body);
      await turnDone(chatKey, eventIdOf(body));
    }
    await settleDreams(chatKey);
    const texts = await eventually(async () => {
      const t = await memoryTexts(chatKey);
      return t.length > 0 ? t : undefined;
    });
    expect(texts.some((t) => t.includes("爬山"))).toBe(true);
    expect(texts.filter((t) => /密码|mail2024|已隐藏/.test(t))).toEqual([]);
    // The extractor did find "我的邮箱密码是 …"; the candidate was rejected as a credential.
    const candidates = (
      await env.DB.prepare("SELECT text, decision, reason FROM memory_candidates WHERE chat_key = ?")
        .bind(chatKey)
        .all<{ text: string; decision: string; reason: string | null }>()
    ).results;
    expect(candidates).toContainEqual({
      text: "[credential withheld]",
      decision: "rejected",
      reason: "credential",
    });
    expect(JSON.stringify(candidates)).not.toContain("mail2024");
  });

  it("masks a OneBot message in text, segments and raw_message", async ({ expect }) => {
    const group = 900_000 + Math.floor(Math.random() * 90_000);
    const messageId = Math.floor(Math.random() * 2 ** 30);
    const text = " 服务器 root 口令 R00t@2024";
    const body = oneBotMessage({
      kind: "group",
      group,
      user: 20001,
      messageId,
      segments: [atBot, { type: "text", data: { text } }],
      rawMessage: `[CQ:at,qq=10000]${text}`,
    });
    const res = await exports.default.fetch(
      await signedOneBotRequest("https://bot.test/webhook/onebot", body),
    );
    expect(res.status).toBe(204);
    await turnDone(`onebot:group:${group}`, `onebot:10000:msg:${messageId}`);
    const rows = await logged(`onebot:group:${group}`, 2);
    expect(JSON.stringify(rows)).not.toContain("R00t@2024");
    expect(rows[0]?.text).toContain(`口令 ${CREDENTIAL_MASK}`);
    const raw = JSON.parse(rows[0]?.raw_json ?? "null") as { message_id: number; raw_message: string };
    expect(raw.message_id).toBe(messageId);
    expect(raw.raw_message).toBe(`[CQ:at,qq=10000] 服务器 root 口令 ${CREDENTIAL_MASK}`);
  });
});
