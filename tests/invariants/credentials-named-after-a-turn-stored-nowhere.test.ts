/**
 * Credentials are never stored anywhere (docs/invariants.md#credentials-are-never-stored-in-memory),
 * here for a value sent alone to the bot and only afterwards named a secret by its sender
 * (docs/decisions/0880-a-value-named-after-its-turn.md). A message addressed to the bot is not
 * held for its naming — its answer is due at once — so by the time the naming comes, the value
 * is in the log, the short-term context, the dream journal, the reply that echoed it and, for a
 * chat whose log is still read from D1, D1's copy. Every D1 table and every chat object's storage
 * is read whole afterwards, and the value must be in none of them; the naming's own turn must not
 * be shown it either. A value named something public, or named by someone else, stays as said.
 *
 * Own file: it follows every group, which every test of a file shares.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { afterAll, afterEach, beforeAll, describe, it, vi } from "vitest";
import { logged, postOneBot, randomId, scripted } from "../support/credential-paths";
import { d1Log, objectFromBeforeTheMove } from "../support/log-migration";
import { atBot, oneBotMessage, SELF, text } from "../support/onebot-events";
import { turnDone } from "../support/qq-events";
import { settled, storedAnywhere } from "../support/stored-anywhere";
import { storedSettings, storeSettings } from "../support/stored-settings";

beforeAll(async () => {
  await storeSettings(env, { follow: { groups: ["*"] } });
});
afterAll(async () => {
  await storedSettings(env).write("{}", "test", Date.now());
});
afterEach(() => {
  vi.restoreAllMocks();
});

type Speaker = (said: string, options?: { addressed?: boolean; wait?: boolean }) => Promise<void>;

/**
 * A OneBot chat: a private one (every message addressed) or a group (addressed with an @), whose
 * bot repeats what it was sent, as a model asking "what is this?" would.
 */
function chat(kind: "private" | "group") {
  const model = scripted((req) => ({ text: `收到「${lastUserText(req)}」，这是什么？` }));
  const id = randomId(700_000_000);
  const chatKey = kind === "private" ? `onebot:private:${id}` : `onebot:group:${id}`;
  const as =
    (user: number): Speaker =>
    async (said, { addressed = kind === "private", wait = true } = {}) => {
      const messageId = randomId(1);
      const body = oneBotMessage({
        kind,
        user: kind === "private" ? id : user,
        ...(kind === "group" ? { group: id } : {}),
        messageId,
        segments: addressed && kind === "group" ? [atBot, text(` ${said}`)] : [text(said)],
        rawMessage: addressed && kind === "group" ? `[CQ:at,qq=${SELF}] ${said}` : said,
      });
      const res = await postOneBot(body);
      if (res.status !== 204) throw new Error(`webhook answered ${res.status}`);
      if (addressed && wait) await turnDone(chatKey, `onebot:${SELF}:msg:${messageId}`, 20_000);
    };
  return { chatKey, as, model };
}

/** A group and two of its members. */
function twoInGroup() {
  const { chatKey, as } = chat("group");
  return { chatKey, a: as(randomId(20_000)), b: as(randomId(20_000)) };
}

function lastUserText(req: { messages: readonly { role: string; content: unknown }[] }): string {
  const user = req.messages.filter((m) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content.slice(-40) : "";
}

describe("a value sent to the bot and named a secret after its answer", () => {
  it("is stored nowhere in a private chat, its echo in the reply included, and the naming's turn does not see it", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const { chatKey, as, model } = chat("private");
    const me = as(0);
    await me("xiaomao1999");
    await me("这是我家wifi密码 帮我记一下");
    // Other wordings: a lock's digits spaced out, then named by what it opens.
    await me("4 7 1 9");
    await me("↑门禁的");
    // Chinese words, named a security question's answer.
    await me("东湖小学");
    await me("刚才那个是我的密保");
    await settled(chatKey);
    const shown = JSON.stringify(model.requests.at(-1)?.messages ?? []);
    expect(shown).not.toContain("xiaomao1999");
    expect(shown).toContain(CREDENTIAL_MASK);
    expect(await storedAnywhere(["xiaomao1999", "4 7 1 9", "东湖小学"])).toEqual([]);
  });

  it("is never read by dreaming, even when a run is due right after the value's turn", {
    timeout: 60_000,
  }, async ({ expect }) => {
    await storeSettings(env, { follow: { groups: ["*"] }, memory: { dreaming: { afterTurns: 1 } } });
    const { chatKey, as, model } = chat("private");
    const me = as(0);
    await me("meiyoumima_88");
    // The run that is due now, before the naming has come.
    await runDurableObjectAlarm(env.CHAT_SESSION.getByName(chatKey));
    await me("刚才那个是我支付宝的支付密码");
    await settled(chatKey, { dreamed: true });
    const dreamed = model.requests.filter((r) => r.jsonSchema);
    expect(dreamed.length).toBeGreaterThan(0);
    expect(JSON.stringify(dreamed)).not.toContain("meiyoumima_88");
    expect(await storedAnywhere(["meiyoumima_88"])).toEqual([]);
  });

  it("is stored nowhere when the naming comes before the value's turn has run", { timeout: 60_000 }, async ({
    expect,
  }) => {
    const { chatKey, as } = chat("private");
    const me = as(0);
    await me("woaichixigua", { wait: false });
    await me("路由器后台密码", { wait: false });
    await settled(chatKey);
    expect(await storedAnywhere(["woaichixigua"])).toEqual([]);
  });

  it("is stored nowhere in a group, addressed with an @, whoever speaks in between", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const { chatKey, a, b } = twoInGroup();
    await a("hk7731", { addressed: true });
    await b("今晚吃啥");
    await a("那个是我QQ邮箱的登录密码 别乱用");
    await settled(chatKey);
    expect(await storedAnywhere(["hk7731"])).toEqual([]);
  });

  it("is gone from D1's copy of a chat whose log is still read there", { timeout: 60_000 }, async ({
    expect,
  }) => {
    const { chatKey, as } = chat("private");
    await objectFromBeforeTheMove(chatKey);
    const me = as(0);
    await me("qingtian_baiyun");
    await settled(chatKey);
    // Flushed already: D1 holds the value and the echo until the naming.
    expect(JSON.stringify(await d1Log(chatKey))).toContain("qingtian_baiyun");
    await me("网银U盾的密码");
    await settled(chatKey);
    const rows = await d1Log(chatKey);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(await storedAnywhere(["qingtian_baiyun"])).toEqual([]);
  });

  it("stays as said when it is named something public, named by someone else, or never named", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const { chatKey, a, b } = twoInGroup();
    // Who says what, and whether to the bot: a value then its public name; another's value; one
    // never named.
    const said: [Speaker, string, boolean][] = [
      [a, "ZK2291008", true],
      [a, "这是快递单号 帮我查下", false],
      [b, "Pp4410kk", true],
      [a, "这是密码吧", false],
      [a, "KT5530917", true],
      [a, "今天天气不错", false],
    ];
    for (const [speak, text, addressed] of said) await speak(text, { addressed });
    await settled(chatKey);
    const rows = await logged(chatKey, 6);
    // Values of an order number's shape, which the trained reader leaves alone on their own: only
    // a naming could mask them here.
    expect(rows.join("\n")).not.toContain(CREDENTIAL_MASK);
    expect(rows).toEqual(expect.arrayContaining(["ZK2291008", "Pp4410kk", "KT5530917"]));
  });
});
