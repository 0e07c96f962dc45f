/**
 * Credentials are never stored anywhere (docs/invariants.md#credentials-are-never-stored-in-memory),
 * here for a value sent alone in a followed group and only afterwards named a secret by its
 * sender (docs/decisions/0860-a-value-named-afterwards.md): every D1 table and every chat
 * object's storage is read whole, and the value must be in none of them. A value its sender
 * names something public, or never names, is logged as it was said: the wait loses nothing. A
 * value in Chinese words is not held but masked where it was stored once named
 * (docs/decisions/0900-chinese-words-named-afterwards.md). A forget of the chat while a value
 * waits takes it too (docs/sessions.md#forget).
 *
 * Own file: it follows every group, which every test of a file shares.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { afterAll, beforeAll, describe, it } from "vitest";
import { logged, postOneBot, randomId } from "../support/credential-paths";
import { oneBotMessage, text } from "../support/onebot-events";
import { sessionsApi } from "../support/sessions";
import { settled, storedAnywhere } from "../support/stored-anywhere";
import { storedSettings, storeSettings } from "../support/stored-settings";

beforeAll(async () => {
  await storeSettings(env, { follow: { groups: ["*"] } });
});
afterAll(async () => {
  await storedSettings(env).write("{}", "test", Date.now());
});

/** A OneBot group where members chat without addressing the bot, and three of its members. */
function group() {
  const id = randomId(700_000_000);
  const chatKey = `onebot:group:${id}`;
  const say = async (user: number, said: string) => {
    const body = oneBotMessage({
      kind: "group",
      group: id,
      user,
      messageId: randomId(1),
      segments: [text(said)],
      rawMessage: said,
    });
    const res = await postOneBot(body);
    if (res.status !== 204) throw new Error(`webhook answered ${res.status}`);
  };
  const [a, b, c] = [randomId(20_000), randomId(20_000), randomId(20_000)];
  return { chatKey, say, a, b, c };
}

describe("a value sent alone and named a secret afterwards", () => {
  it("is stored nowhere, whoever speaks in between and however it is named", { timeout: 60_000 }, async ({
    expect,
  }) => {
    const { chatKey, say, a, b, c } = group();
    await say(a, "Lx20240915");
    await say(b, "收到");
    await say(a, "↑家里wifi密码 别外传");
    // Wordings of other writers: an emoji beside the value, a film membership, a lock box's digits.
    await say(c, "🐱catcat0812");
    await say(c, "爱奇艺会员的密码哈 别乱改");
    await say(b, "7 3 9 1");
    await say(b, "密码箱 四位的");
    // Letters alone, no digit (decision 0870).
    await say(a, "qingtian_baiyun");
    await say(a, "⬆️路由器后台密码 记一下");
    await settled(chatKey);
    const rows = await logged(chatKey, 9);
    // The emoji beside a value stays; the value does not.
    expect(rows.filter((r) => r.includes(CREDENTIAL_MASK))).toHaveLength(4);
    expect(await storedAnywhere(["Lx20240915", "catcat0812", "7 3 9 1", "qingtian_baiyun"])).toEqual([]);
  });

  it("in Chinese words, is logged at once and masked wherever it was stored when its sender names it", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const { chatKey, say, a, b } = group();
    await say(a, "山高水长");
    await logged(chatKey, 1);
    await say(b, "好嘞");
    await say(a, "刚那个是进群的口令 别外传");
    // Chinese words that are chat, named nothing: as said.
    await say(b, "晚上吃火锅");
    await settled(chatKey);
    const rows = await logged(chatKey, 4);
    expect(rows).toEqual(expect.arrayContaining(["好嘞", "晚上吃火锅"]));
    expect(await storedAnywhere(["山高水长"])).toEqual([]);
  });

  it("is logged as said when its sender names it something public, or says nothing before the wait ends", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const { chatKey, say, a, b } = group();
    await say(a, "ZK2291008");
    await say(a, "这是快递单号 帮我查下");
    await say(b, "A3-1207");
    await logged(chatKey, 2);
    // The wait ends unnamed: the alarm set for its end logs it.
    const stub = env.CHAT_SESSION.getByName(chatKey);
    const waiting = await runInDurableObject(stub, (_o, state) => {
      const held = state.storage.sql
        .exec<{ n: number }>("SELECT count(*) AS n FROM inbox WHERE held_until > 0")
        .one().n;
      state.storage.sql.exec("UPDATE inbox SET held_until = 1 WHERE held_until > 0");
      return held;
    });
    expect(waiting).toBe(1);
    await runDurableObjectAlarm(stub);
    await settled(chatKey);
    const rows = await logged(chatKey, 3);
    expect(rows).toEqual(expect.arrayContaining(["ZK2291008", "这是快递单号 帮我查下", "A3-1207"]));
  });

  it("is forgotten with its chat while it waits, and does not come back when the wait ends", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const { chatKey, say, a } = group();
    await say(a, "早上好");
    await logged(chatKey, 1);
    // A room number, which no rule masks: only the forget may keep it out.
    await say(a, "B7-0415");
    const forgot = await sessionsApi(`/${chatKey}/forget`, { confirm: chatKey });
    expect(forgot.status).toBe(200);
    const stub = env.CHAT_SESSION.getByName(chatKey);
    await runInDurableObject(stub, (_o, state) => {
      state.storage.sql.exec("UPDATE inbox SET held_until = 1 WHERE held_until > 0");
    });
    await runDurableObjectAlarm(stub);
    await settled(chatKey);
    expect(await storedAnywhere(["B7-0415", "早上好"])).toEqual([]);
  });
});
