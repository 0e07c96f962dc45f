/**
 * Credentials are never stored anywhere (docs/invariants.md#credentials-are-never-stored-in-memory):
 * after each path below is driven through the real webhooks, chat objects, tools, dreaming and
 * admin API, every D1 table (FTS shadow tables included, and each FTS index asked directly) and
 * every chat object's SQLite and key-value storage are read whole, and the secret — and its
 * distinctive pieces — must be in none of them.
 *
 * This file: credentials the bot itself produces: dreaming, cut replies, an admin's tool calls.
 *
 * Own file: it changes the stored settings (identity enabled with one admin, dreaming after
 * two turns), which every test of a file shares. Each test has secrets of its own, so one
 * path that leaks cannot make another test fail. The paths are tests/support/credential-paths.ts.
 */
import { env } from "cloudflare:workers";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { beforeAll, describe, it } from "vitest";
import {
  ADMIN_USER,
  enableIdentityAndDreaming,
  randomId,
  sample,
  say,
  scripted,
} from "../support/credential-paths";
import { uid } from "../support/memory";
import { logQuery } from "../support/object-log";
import { c2cBody } from "../support/qq-events";
import { settled, storedAnywhere } from "../support/stored-anywhere";
import { eventually } from "../support/wait";

beforeAll(enableIdentityAndDreaming);

/** The rows `sql` reads for the chat, once at least `atLeast` of them are written (they follow the turn). */
const rowsOnceThere = <T>(sql: string, chatKey: string, atLeast: number) =>
  eventually(async () => {
    const { results } = await env.DB.prepare(sql).bind(chatKey).all<T>();
    return results.length >= atLeast ? results : undefined;
  }, 20_000);

/**
 * Two turns of a new private chat whose dreaming run the model answers with `dream`; the decisions
 * recorded for its candidates, once `atLeast` of them are there.
 */
async function dreamedDecisions(dream: string, said: readonly [string, string], atLeast: number) {
  scripted(() => ({ text: "好的" }), dream);
  const user = `UM${uid()}`;
  const chatKey = `qq:private:${user}`;
  for (const text of said) await say(c2cBody({ user, text }), chatKey);
  await settled(chatKey, { dreamed: true });
  const rows = await rowsOnceThere<{ decision: string }>(
    "SELECT decision FROM memory_candidates WHERE chat_key = ?",
    chatKey,
    atLeast,
  );
  return rows.map((c) => c.decision).sort();
}

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
    // Every candidate and the archive request were decided and recorded.
    expect(await dreamedDecisions(dream, ["我喜欢爬山", "周末一起去吧"], 4)).toEqual([
      "insert",
      "rejected",
      "rejected",
      "rejected",
    ]);
    expect(await storedAnywhere(needles)).toEqual([]);
  });

  it("a statement of what a password is, in words no rule reads as a value, is kept out of memory and summary", {
    timeout: 60_000,
  }, async ({ expect }) => {
    // Values a message's rules leave as written (a question, a closing 的, a description), as the
    // model writes them down in its own words.
    const needles = [
      "作业写完了吗老铁",
      "你猜我猜不猜呀",
      "今天吃了吗兄弟",
      "女儿小名加生日",
      "dog's name twice",
    ];
    const dream = JSON.stringify({
      memories: [
        { kind: "fact", text: "用户家的wifi密码是作业写完了吗老铁", importance: 0.9, turn: 0 },
        { kind: "fact", text: "用户和表弟约定的暗号是你猜我猜不猜呀", importance: 0.8, turn: 0 },
        { kind: "fact", text: "用户的QQ密码改成了女儿小名加生日", importance: 0.8, turn: 2 },
        {
          kind: "fact",
          text: "The user's router password is the dog's name twice",
          importance: 0.8,
          turn: 2,
        },
        { kind: "preference", text: "用户喜欢钓鱼", importance: 0.5, turn: 0 },
      ],
      archive: [],
      summary: "聊了钓鱼；用户的路由器密码是今天吃了吗兄弟",
    });
    expect(await dreamedDecisions(dream, ["我喜欢钓鱼", "下周去水库"], 5)).toEqual([
      "insert",
      "rejected",
      "rejected",
      "rejected",
      "rejected",
    ]);
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
    const actions = (
      await rowsOnceThere<{ action: string }>(
        "SELECT action FROM audit_log WHERE chat_key = ? ORDER BY id",
        chatKey,
        5,
      )
    ).map((a) => a.action);
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
      const [row] = await logQuery<{ text: string }>(target, "SELECT text FROM messages");
      return row;
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
