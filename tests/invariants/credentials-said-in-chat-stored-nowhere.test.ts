/**
 * Credentials are never stored anywhere (docs/invariants.md#credentials-are-never-stored-in-memory):
 * after each path below is driven through the real webhooks, chat objects, tools, dreaming and
 * admin API, every D1 table (FTS shadow tables included, and each FTS index asked directly) and
 * every chat object's SQLite and key-value storage are read whole, and the secret — and its
 * distinctive pieces — must be in none of them.
 *
 * This file: credentials said in chat, in every form a message can carry them.
 *
 * Own file: it changes the stored settings (identity enabled with one admin, dreaming after
 * two turns), which every test of a file shares. Each test has secrets of its own, so one
 * path that leaks cannot make another test fail. The paths are tests/support/credential-paths.ts.
 */
import { env } from "cloudflare:workers";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { beforeAll, describe, it } from "vitest";
import { POSITIVES } from "../domain/privacy/credential-corpus";
import {
  enableIdentityAndDreaming,
  logged,
  postOneBotGroup,
  REFUSED,
  sample,
  say,
} from "../support/credential-paths";
import { groupBodyWithIdentity } from "../support/identity";
import { uid } from "../support/memory";
import { logQuery } from "../support/object-log";
import { atBot, SELF, text } from "../support/onebot-events";
import { c2cBody, qqMessageBody } from "../support/qq-events";
import { settled, storedAnywhere } from "../support/stored-anywhere";

beforeAll(enableIdentityAndDreaming);

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
    const voice = qqMessageBody("C2C_MESSAGE_CREATE", {
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
    });
    await say(voice, chatKey);
    // Asked to remember, in words and by command: refused, and nothing of either is kept.
    const intent = await say(c2cBody({ user, text: `记住我的 GitHub ${sample(GITHUB)}` }), chatKey);
    expect(intent.replies[0]?.text).toBe(REFUSED);
    const command = await say(c2cBody({ user, text: `/remember ${sample(AWS)}` }), chatKey);
    expect(command.replies[0]?.text).toBe(REFUSED);

    // A OneBot group whose name holds a password, and a session cookie in a text segment.
    const cookie = sample("el4ukv0kqbvoirg7nkp4dncpk3");
    const sent = await postOneBotGroup(
      {
        segments: [atBot, text(` ${cookie}`)],
        rawMessage: `[CQ:at,qq=${SELF}] ${cookie}`,
        groupName: sample("tplink5566"),
      },
      300_000_000,
    );
    expect(sent.status).toBe(204);
    const groupKey = sent.chatKey;
    await sent.turnDone();

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
      const sent = await postOneBotGroup({ segments: c.segments, rawMessage: c.raw }, 400_000_000);
      expect(sent.status).toBe(204);
      chatKey = sent.chatKey;
      await sent.turnDone();
    } else {
      const group = `G${uid()}`;
      const bot = `BOT${uid()}`;
      const member = `M${uid()}`;
      const body = qqMessageBody("GROUP_MESSAGE_CREATE", {
        content: `${sample("hunter2hunter2")} `.replace("是 ", `是 <@${bot}> `),
        timestamp: new Date().toISOString(),
        author: { id: member, member_openid: member },
        group_id: group,
        group_openid: group,
        mentions: [{ id: bot, member_openid: bot, username: "Akasha", bot: true, is_you: true }],
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
        const sent = await postOneBotGroup(
          {
            segments: [atBot, text(" 今天天气不错")],
            rawMessage: `[CQ:at,qq=${SELF}] 今天天气不错`,
            card: c.name,
          },
          500_000_000,
        );
        expect(sent.status).toBe(204);
        chatKey = sent.chatKey;
        await sent.turnDone();
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
      const [raw] = await logQuery<{ raw_json: string }>(
        chatKey,
        "SELECT raw_json FROM messages WHERE direction = 'in'",
      );
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

  it("keeps no value corrected in the message after one that held a value, nor a countersign announced", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const user = `UC${uid()}`;
    const chatKey = `qq:private:${user}`;
    await say(c2cBody({ user, text: "路由器后台密码 Hb52!qq07" }), chatKey);
    // Neither the rules nor the reader read this correction alone (the reader reads "是 …" ones).
    await say(c2cBody({ user, text: "打错了 Yt55@park" }), chatKey);
    await say(c2cBody({ user, text: "今晚的暗号是" }), chatKey);
    await say(c2cBody({ user, text: "宝塔镇河妖" }), chatKey);
    await settled(chatKey, { dreamed: true });
    expect(await logged(chatKey, 4)).toHaveLength(4);
    expect(await storedAnywhere(["Hb52!qq07", "Yt55@park", "宝塔镇河妖"])).toEqual([]);
  });

  it("keeps no password one member asks for in a group and another answers alone", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const group = `G${uid()}`;
    const chatKey = `qq:group:${group}`;
    const ask = (member: string, text: string) =>
      say(groupBodyWithIdentity({ group, member, text }), chatKey);
    await ask(`MA${uid()}`, "群主，会议室wifi密码多少？");
    await ask(`MC${uid()}`, "我也想知道");
    await ask(`MB${uid()}`, "mt2025room");
    // Asked for again by a keypad's digits and, in words, a room's password (decisions 0830, 0840).
    await ask(`MA${uid()}`, "门禁密码再发我一遍");
    await ask(`MB${uid()}`, "是 7 3 9 1 5 2");
    await ask(`MD${uid()}`, "开黑房间密码？");
    await ask(`MB${uid()}`, "天王盖地虎");
    await settled(chatKey);
    expect(await logged(chatKey, 7)).toHaveLength(7);
    expect(await storedAnywhere(["mt2025room", "7 3 9 1 5 2", "天王盖地虎"])).toEqual([]);
  });
});
