/**
 * Credentials are never stored anywhere: after each path below is driven through the real
 * webhooks, chat objects, tools, dreaming and admin API, every D1 table (FTS shadow tables
 * included, and each FTS index asked directly) and every chat object's SQLite and key-value
 * storage are read whole, and the secret — and its distinctive pieces — must be in none of them.
 *
 * Own file: it changes the stored settings (identity enabled with one admin, dreaming after
 * two turns), which every test of a file shares. Each test has secrets of its own, so one
 * path that leaks cannot make another test fail.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, it, vi } from "vitest";
import { chatObjectServices } from "../../src/composition/chat-object/chat-object-services";
import type { ModelRequest, ModelResponse } from "../../src/domain/model/chat-model";
import { CREDENTIAL_MASK } from "../../src/domain/privacy/credentials";
import { POSITIVES } from "../domain/privacy/credential-corpus";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { groupBodyWithIdentity } from "../support/identity";
import { newMemory, seedMemory, uid } from "../support/memory";
import { signedOneBotRequest } from "../support/onebot-signing";
import { c2cBody, eventIdOf, postQq, turnDone } from "../support/qq-events";
import { settled, storedAnywhere } from "../support/stored-anywhere";
import { storedSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

const ADMIN_USER = `ADM${uid()}`;
const SELF = 10000;

beforeAll(async () => {
  await storedSettings(env).write(
    JSON.stringify({
      memory: { dreaming: { afterTurns: 2 } },
      identity: { enabled: true, people: [], admins: [`qq:user:${ADMIN_USER}`], chatDomains: {} },
    }),
    "test",
    Date.now(),
  );
});

/** The corpus message that carries `secret`: the project's own samples, not made up here. */
function sample(secret: string): string {
  const found = POSITIVES.find(([, s]) => s === secret);
  if (!found) throw new Error(`no corpus sample carries ${secret}`);
  return found[0];
}

// ---------------------------------------------------------------------------------------------
// Driving the paths.

async function say(body: string, chatKey: string) {
  const res = await postQq(body);
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  return turnDone(chatKey, eventIdOf(body), 20_000);
}

type Segment = { type: string; data: Record<string, unknown> };

function oneBotMessage(input: {
  kind: "group" | "private";
  user: number;
  group?: number;
  messageId: number;
  segments: Segment[];
  rawMessage: string;
  card?: string;
  nickname?: string;
  groupName?: string;
}): string {
  return JSON.stringify({
    time: Math.floor(Date.now() / 1000),
    self_id: SELF,
    post_type: "message",
    message_type: input.kind,
    sub_type: input.kind === "group" ? "normal" : "friend",
    message_id: input.messageId,
    ...(input.group === undefined ? {} : { group_id: input.group }),
    ...(input.groupName === undefined ? {} : { group_name: input.groupName }),
    user_id: input.user,
    message: input.segments,
    raw_message: input.rawMessage,
    font: 0,
    sender: {
      user_id: input.user,
      nickname: input.nickname ?? "小红",
      card: input.card ?? "",
      role: "member",
    },
  });
}

const postOneBot = async (body: string) =>
  exports.default.fetch(await signedOneBotRequest("https://bot.test/webhook/onebot", body));

const randomId = (base: number) => base + Math.floor(Math.random() * 90_000_000);
const text = (t: string): Segment => ({ type: "text", data: { text: t } });
const atBot: Segment = { type: "at", data: { qq: String(SELF) } };

const EMPTY_DREAM = JSON.stringify({ memories: [], archive: [], summary: null });

/**
 * A model for the chat objects created while the spy is in place: turns are answered by
 * `turn`, dreaming's extraction (the request with a JSON schema) by `dream`.
 */
function scripted(turn: (req: ModelRequest) => Partial<ModelResponse>, dream = EMPTY_DREAM) {
  const step = async (req: ModelRequest): Promise<Partial<ModelResponse>> =>
    req.jsonSchema ? { text: dream } : turn(req);
  const model = new ScriptedChatModel(Array.from({ length: 30 }, () => step));
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model }));
  return model;
}

const logText = async (chatKey: string) =>
  (
    await env.DB.prepare("SELECT text FROM messages WHERE chat_key = ? AND direction = 'in' ORDER BY ts, seq")
      .bind(chatKey)
      .all<{ text: string }>()
  ).results.map((r) => r.text);

const logged = (chatKey: string, n: number) =>
  eventually(async () => {
    const rows = await logText(chatKey);
    return rows.length >= n ? rows : undefined;
  }, 20_000);

// ---------------------------------------------------------------------------------------------

describe("a credential said in chat is stored nowhere", () => {
  const OPENAI = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z-Q7rS0tU";
  const JWT =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
  const GITHUB = "gho_16C7e42F292c6912E7710c838347Ae178B4a";
  const AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

  it("through QQ text, voice transcripts, 记住…, /remember, OneBot segments and group names, recent turns and dreaming", {
    timeout: 90_000,
  }, async ({ expect }) => {
    const needles = [
      "Qq778899",
      OPENAI,
      "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
      "eyJzdWIiOiIxMjM0NTY3ODkwIn0",
      "dozjgNryP4J3jVmNHl0w5N",
      "XgL0n3I9PlFUP0THsR8U",
      "MIIEowIBAAKCAQEA7bq3",
      "Zx9Yw8Vu7Ts6",
      GITHUB,
      "16C7e42F292c6912E7710c838347Ae178B4a",
      "wJalrXUtnFEMI",
      "bPxRfiCYEXAMPLEKEY",
      "mail2024",
      "el4ukv0kqbvoirg7nkp4dncpk3",
      "tplink5566",
    ];
    const pem = POSITIVES.find(([, s]) => s === "MIIEowIBAAKCAQEA7bq3")?.[0] ?? "";
    const user = `UA${uid()}`;
    const chatKey = `qq:private:${user}`;
    // A password and an API key, a JWT, a private key block: each its own model turn.
    await say(c2cBody({ user, text: `${sample("Qq778899")}，${sample(OPENAI)}` }), chatKey);
    await say(c2cBody({ user, text: `帮我看看这个 ${JWT}` }), chatKey);
    await say(c2cBody({ user, text: pem }), chatKey);
    // A voice message whose transcript says a password.
    const voice = JSON.stringify({
      op: 0,
      id: `C2C_MESSAGE_CREATE:${crypto.randomUUID()}`,
      t: "C2C_MESSAGE_CREATE",
      d: {
        id: `ROBOT1.0_${crypto.randomUUID()}`,
        content: "",
        timestamp: new Date().toISOString(),
        author: { id: user, user_openid: user },
        attachments: [
          {
            content_type: "voice",
            url: "https://multimedia.nt.qq.com.cn/voice/1.silk",
            asr_refer_text: sample("mail2024!"),
          },
        ],
      },
    });
    await say(voice, chatKey);
    // Asked to remember, in words and by command: refused, and nothing of either is kept.
    const intent = await say(c2cBody({ user, text: `记住我的 GitHub ${sample(GITHUB)}` }), chatKey);
    expect(intent.replies[0]?.text).toBe("这看起来像密码、令牌或密钥，我不会记下来。");
    const command = await say(c2cBody({ user, text: `/remember ${sample(AWS)}` }), chatKey);
    expect(command.replies[0]?.text).toBe("这看起来像密码、令牌或密钥，我不会记下来。");

    // A OneBot group whose name holds a password, and a session cookie in a text segment.
    const group = randomId(300_000_000);
    const messageId = randomId(1);
    const cookie = sample("el4ukv0kqbvoirg7nkp4dncpk3");
    const onebot = oneBotMessage({
      kind: "group",
      group,
      user: randomId(20_000),
      messageId,
      segments: [atBot, text(` ${cookie}`)],
      rawMessage: `[CQ:at,qq=${SELF}] ${cookie}`,
      groupName: sample("tplink5566"),
    });
    expect((await postOneBot(onebot)).status).toBe(204);
    const groupKey = `onebot:group:${group}`;
    await turnDone(groupKey, `onebot:${SELF}:msg:${messageId}`, 20_000);

    // Four model turns: dreaming ran twice (offline, by the rules) and committed its runs.
    await settled(chatKey, { dreamed: true });
    await settled(groupKey);
    const runs = await env.DB.prepare("SELECT count(*) AS n FROM memory_runs WHERE chat_key = ?")
      .bind(chatKey)
      .first<{ n: number }>();
    expect(runs?.n).toBeGreaterThanOrEqual(1);
    // The paths ran: the log holds what was said, masked.
    const rows = await logged(chatKey, 6);
    expect(rows.filter((r) => r.includes(CREDENTIAL_MASK)).length).toBeGreaterThanOrEqual(5);
    const title = await env.DB.prepare("SELECT title FROM chats WHERE chat_key = ?")
      .bind(groupKey)
      .first<{ title: string | null }>();
    expect(title?.title).toContain(CREDENTIAL_MASK);

    expect(await storedAnywhere(needles)).toEqual([]);
  });

  it.for([
    {
      label: "a OneBot password whose value follows an @ of the bot",
      secret: "gaben4ever",
      needles: ["gaben4ever"],
      chat: "onebot" as const,
      segments: [text("我的 steam 密码是 "), atBot, text(" gaben4ever")],
      raw: `我的 steam 密码是 [CQ:at,qq=${SELF}] gaben4ever`,
    },
    {
      label: "a OneBot private key block cut by an @ of the bot",
      secret: "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7",
      needles: ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw"],
      chat: "onebot" as const,
      segments: [
        text("-----BEGIN PRIVATE KEY-----\n"),
        atBot,
        text("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----"),
      ],
      raw: `-----BEGIN PRIVATE KEY-----\n[CQ:at,qq=${SELF}]MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----`,
    },
    {
      label: "a QQ group password whose value follows the bot's mention",
      secret: "hunter2hunter2",
      needles: ["hunter2hunter2"],
      chat: "qq" as const,
      segments: [],
      raw: "",
    },
  ])("is masked in the raw payload as in the text: $label", { timeout: 60_000 }, async (c, { expect }) => {
    let chatKey: string;
    if (c.chat === "onebot") {
      const group = randomId(400_000_000);
      const messageId = randomId(1);
      const body = oneBotMessage({
        kind: "group",
        group,
        user: randomId(20_000),
        messageId,
        segments: c.segments,
        rawMessage: c.raw,
      });
      expect((await postOneBot(body)).status).toBe(204);
      chatKey = `onebot:group:${group}`;
      await turnDone(chatKey, `onebot:${SELF}:msg:${messageId}`, 20_000);
    } else {
      const group = `G${uid()}`;
      const bot = `BOT${uid()}`;
      const member = `M${uid()}`;
      const body = JSON.stringify({
        op: 0,
        id: `GROUP_MESSAGE_CREATE:${crypto.randomUUID()}`,
        t: "GROUP_MESSAGE_CREATE",
        d: {
          id: `ROBOT1.0_${crypto.randomUUID()}`,
          content: `${sample("hunter2hunter2")} `.replace("是 ", `是 <@${bot}> `),
          timestamp: new Date().toISOString(),
          author: { id: member, member_openid: member },
          group_id: group,
          group_openid: group,
          mentions: [{ id: bot, member_openid: bot, username: "Akasha", bot: true, is_you: true }],
        },
      });
      chatKey = `qq:group:${group}`;
      await say(body, chatKey);
    }
    await settled(chatKey);
    // The normalized text was recognized as carrying a credential and masked.
    const [row] = await logged(chatKey, 1);
    expect(row).toContain(CREDENTIAL_MASK);
    expect(row).not.toContain(c.secret);
    expect(await storedAnywhere(c.needles)).toEqual([]);
  });

  it.for([
    { transport: "onebot" as const, name: sample("zhangsan1990"), needle: "zhangsan1990" },
    { transport: "qq" as const, name: sample("qwer1234"), needle: "qwer1234" },
  ])(
    "keeps no password that a $transport sender put in their display name",
    { timeout: 60_000 },
    async (c, { expect }) => {
      let chatKey: string;
      if (c.transport === "onebot") {
        const group = randomId(500_000_000);
        const messageId = randomId(1);
        const body = oneBotMessage({
          kind: "group",
          group,
          user: randomId(20_000),
          messageId,
          segments: [atBot, text(" 今天天气不错")],
          rawMessage: `[CQ:at,qq=${SELF}] 今天天气不错`,
          card: c.name,
        });
        expect((await postOneBot(body)).status).toBe(204);
        chatKey = `onebot:group:${group}`;
        await turnDone(chatKey, `onebot:${SELF}:msg:${messageId}`, 20_000);
      } else {
        const group = `G${uid()}`;
        chatKey = `qq:group:${group}`;
        await say(
          groupBodyWithIdentity({ group, member: `M${uid()}`, text: "今天天气不错", name: c.name }),
          chatKey,
        );
      }
      await settled(chatKey);
      // The payload's copy of the name is masked: the name was recognized as carrying a password.
      const raw = await env.DB.prepare(
        "SELECT raw_json FROM messages WHERE chat_key = ? AND direction = 'in'",
      )
        .bind(chatKey)
        .first<{ raw_json: string }>();
      expect(raw?.raw_json).toContain(CREDENTIAL_MASK);
      expect(await storedAnywhere([c.needle])).toEqual([]);
    },
  );

  it("keeps no password sent in the message after the one that announced it", { timeout: 60_000 }, async ({
    expect,
  }) => {
    const user = `US${uid()}`;
    const chatKey = `qq:private:${user}`;
    await say(c2cBody({ user, text: "我家wifi密码是" }), chatKey);
    await say(c2cBody({ user, text: "Xy12ab34" }), chatKey);
    await settled(chatKey, { dreamed: true });
    expect(await logged(chatKey, 2)).toHaveLength(2);
    expect(await storedAnywhere(["Xy12ab34"])).toEqual([]);
  });
});

describe("a credential the bot itself produces is stored nowhere", () => {
  it("dreaming's candidates, archive reasons and summary carry none, whatever turn the model cites", {
    timeout: 60_000,
  }, async ({ expect }) => {
    // A model may reassemble a secret that arrived in pieces, or quote one from a tool result.
    const ANTHROPIC = "sk-ant-api03-Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7Aa";
    const GITLAB = "glpat-xY9zW8vU7tS6rQ5pO4nM";
    const SENDGRID = "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";
    const needles = [
      ANTHROPIC,
      "Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7Aa",
      GITLAB,
      "xY9zW8vU7tS6rQ5pO4nM",
      "Passw0rd",
      "ngeVfQFYQlKU0ufo8x5d1A",
      "TwL2iGABf9DHoTf",
    ];
    const dream = JSON.stringify({
      memories: [
        // Turn 1 is the bot's reply, turn 9 does not exist: neither is a user turn.
        { kind: "fact", text: `用户的 Claude key 是 ${ANTHROPIC}`, importance: 0.9, turn: 1 },
        { kind: "fact", text: `用户的 GitLab token 是 ${GITLAB}`, importance: 0.9, turn: 9 },
        { kind: "preference", text: "用户喜欢爬山", importance: 0.5, turn: 0 },
      ],
      archive: [{ id: "m_does_not_exist", reason: `旧密码 Passw0rd 已经改了` }],
      summary: `聊了爬山；用户贴了 SendGrid key ${SENDGRID}`,
    });
    scripted(() => ({ text: "好的" }), dream);
    const user = `UM${uid()}`;
    const chatKey = `qq:private:${user}`;
    await say(c2cBody({ user, text: "我喜欢爬山" }), chatKey);
    await say(c2cBody({ user, text: "周末一起去吧" }), chatKey);
    await settled(chatKey, { dreamed: true });
    const candidates = await eventually(async () => {
      const r = (
        await env.DB.prepare("SELECT decision, reason FROM memory_candidates WHERE chat_key = ?")
          .bind(chatKey)
          .all<{ decision: string; reason: string | null }>()
      ).results;
      return r.length >= 4 ? r : undefined;
    }, 20_000);
    // Every candidate and the archive request were decided and recorded.
    expect(candidates.map((c) => c.decision).sort()).toEqual(["insert", "rejected", "rejected", "rejected"]);
    expect(await storedAnywhere(needles)).toEqual([]);
  });

  it("a reply cut at the length limit keeps no piece of a key", { timeout: 60_000 }, async ({ expect }) => {
    const KEY = "sk-3b9a2f7c1d8e4a6b9c0d2e4f6a8b0c1d";
    // The whole key is masked when the bot says it.
    scripted(() => ({ text: `${"好".repeat(1480)} ${KEY} ${"好".repeat(30)}` }));
    const user = `UL${uid()}`;
    const chatKey = `qq:private:${user}`;
    const status = await say(c2cBody({ user, text: sample(KEY) }), chatKey);
    await settled(chatKey);
    // The reply was cut: 1,499 characters and an ellipsis.
    const reply = status.replies[0]?.text ?? "";
    expect([...reply]).toHaveLength(1500);
    expect(reply.endsWith("…")).toBe(true);
    expect(await storedAnywhere(["3b9a2f7c1d8e"])).toEqual([]);
    expect(reply).not.toContain("3b9a2f7c1d8e");
  });

  it("an admin's tool calls keep none in the audit log, the settings or the target chat", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const GHP = "ghp_0123456789abcdefghijABCDEFGHIJ";
    const HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
    const XOXB = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx";
    const GOOGLE = "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY";
    const DOCKER = "dckr_pat_Ab12Cd34Ef56Gh78Ij90Kl12Mn3";
    const NPM = "npm_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78";
    const target = `onebot:group:${randomId(600_000_000)}`;
    const calls = [
      { name: "config_change", arguments: { action: "get", path: `llm.${GHP}` } },
      {
        name: "config_change",
        arguments: { action: "set", path: "turn.persona", value: JSON.stringify(`部署用 ${HF}`) },
      },
      {
        name: "kb_manage",
        arguments: { action: "delete_document", collection: "notes", source: `deploy-${XOXB}.md` },
      },
      { name: "identity_manage", arguments: { action: "whois", account: `qq:user:${GOOGLE}` } },
      { name: "session_manage", arguments: { chat: DOCKER } },
      { name: "send_message", arguments: { chat: target, text: `部署用的 token：${NPM}` } },
    ];
    const model = scripted((req) =>
      req.messages.at(-1)?.role === "tool"
        ? { text: "都处理了" }
        : {
            toolCalls: calls.map((c, i) => ({
              id: `c${i}`,
              name: c.name,
              arguments: JSON.stringify(c.arguments),
            })),
          },
    );
    const chatKey = `qq:private:${ADMIN_USER}`;
    await say(c2cBody({ user: ADMIN_USER, text: "帮我处理一下部署的事" }), chatKey);
    await settled(chatKey);
    // Every tool ran as the admin's (none was stopped by the guard) and left its audit rows.
    const afterTools = model.requests.find((r) => r.messages.some((m) => m.role === "tool"));
    const toolAnswers = afterTools?.messages.filter((m) => m.role === "tool") ?? [];
    expect(toolAnswers).toHaveLength(calls.length);
    const actions = await eventually(async () => {
      const r = (
        await env.DB.prepare("SELECT action FROM audit_log WHERE chat_key = ? ORDER BY id")
          .bind(chatKey)
          .all<{ action: string }>()
      ).results.map((a) => a.action);
      return r.length >= 5 ? r : undefined;
    }, 20_000);
    expect(actions).toEqual(
      expect.arrayContaining([
        "config.get",
        "config.set",
        "kb.delete_document",
        "identity.whois",
        "session_manage",
      ]),
    );
    // The relayed message reached the target chat's log, masked.
    const relayed = await eventually(async () => {
      const row = await env.DB.prepare("SELECT text FROM messages WHERE chat_key = ?")
        .bind(target)
        .first<{ text: string }>();
      return row ?? undefined;
    }, 20_000);
    expect(relayed.text).toBe(`部署用的 token：${CREDENTIAL_MASK}`);
    expect(
      await storedAnywhere([
        GHP,
        "0123456789abcdefghijABCDEFGHIJ",
        HF,
        "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
        XOXB,
        "AbCdEfGhIjKlMnOpQrStUvWx",
        GOOGLE,
        "9tSrke72PouQMnMX",
        DOCKER,
        "Ab12Cd34Ef56Gh78Ij90Kl12Mn3",
        NPM,
      ]),
    ).toEqual([]);
  });
});

describe("a credential that reaches the system another way is stored nowhere", () => {
  it("an admin's memory edit through the API keeps none in memory", async ({ expect }) => {
    const chat = `qq:group:G${uid()}`;
    const [id] = await seedMemory([newMemory(`chat:${chat}`, "群里的 wifi 在前台问", { kind: "fact" })]);
    const res = await exports.default.fetch(
      new Request(`https://bot.test/api/memory/${id}`, {
        method: "PATCH",
        headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
        body: JSON.stringify({ text: `群里的 ${sample("coffee4all")}` }),
      }),
    );
    // Refused or masked, the item exists and the edit went through the real route.
    expect([200, 400]).toContain(res.status);
    expect(await storedAnywhere(["coffee4all"])).toEqual([]);
  });

  it("refused, ignored and failing events leave none behind, in D1, the ops log or the chat object", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const STRIPE = "sk_live_51HqZx2Ab3Cd4Ef5Gh6Ij7Kl8";
    const AKIA = "AKIAIOSFODNN7EXAMPLE";
    const ASIA = "ASIAY34FZKBOKMUTVV7A";
    const SLACK = "xoxp-1111-2222-3333-abcdef";
    const PAT = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123";
    const time = Math.floor(Date.now() / 1000);

    // A OneBot friend request whose greeting holds a key: ignored.
    const request = JSON.stringify({
      time,
      self_id: SELF,
      post_type: "request",
      request_type: "friend",
      user_id: randomId(20_000),
      comment: `验证：${sample(STRIPE)}`,
      flag: "f1",
    });
    expect((await postOneBot(request)).status).toBe(204);
    // A malformed OneBot message (no group id) carrying a key: refused.
    const malformed = JSON.stringify({
      time,
      self_id: SELF,
      post_type: "message",
      message_type: "group",
      message_id: randomId(1),
      user_id: randomId(20_000),
      message: [atBot, text(` ${sample(AKIA)}`)],
      raw_message: sample(AKIA),
    });
    expect((await postOneBot(malformed)).status).toBe(400);
    // A QQ event type the bot does not handle, carrying a key: acknowledged, nothing kept.
    const interaction = JSON.stringify({
      op: 0,
      id: `INTERACTION_CREATE:${crypto.randomUUID()}`,
      t: "INTERACTION_CREATE",
      d: { id: crypto.randomUUID(), data: { resolved: { button_data: sample(ASIA) } } },
    });
    expect((await postQq(interaction)).status).toBe(200);
    // A QQ message signed with another secret: refused before anything is stored.
    const forged = c2cBody({ user: `UF${uid()}`, text: sample(SLACK) });
    expect((await postQq(forged, { secret: "not-the-bot-secret-000" })).status).toBe(401);

    // A model that fails, its error quoting the key back: the user gets the apology.
    const real = chatObjectServices.create.bind(chatObjectServices);
    const failing = new ScriptedChatModel(
      Array.from({ length: 5 }, () => ({
        error: { kind: "config" as const, message: `provider refused the request: ${PAT}` },
      })),
    );
    vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model: failing }));
    const user = `UE${uid()}`;
    const chatKey = `qq:private:${user}`;
    const status = await say(c2cBody({ user, text: `token 是 ${PAT}` }), chatKey);
    expect(status.replies[0]?.text).toBe("抱歉，我现在有点忙，稍后再试试吧。");
    await settled(chatKey);
    const usage = await eventually(async () => {
      const row = await env.DB.prepare("SELECT ok, error_kind FROM model_usage WHERE chat_key = ?")
        .bind(chatKey)
        .first<{ ok: number; error_kind: string }>();
      return row ?? undefined;
    }, 20_000);
    expect(usage).toEqual({ ok: 0, error_kind: "config" });

    expect(
      await storedAnywhere([
        STRIPE,
        "51HqZx2Ab3Cd4Ef5Gh6Ij7Kl8",
        AKIA,
        ASIA,
        SLACK,
        PAT,
        "11ABCDEFG0123456789",
      ]),
    ).toEqual([]);
  });
});
