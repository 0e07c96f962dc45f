/**
 * Credentials are never stored anywhere (docs/invariants.md#credentials-are-never-stored-in-memory):
 * after each path below, every D1 table (FTS shadow tables included, and each FTS index asked
 * directly) and every chat object's SQLite and key-value storage are read whole for the secret.
 *
 * This file: what a OneBot implementation hands over besides a live message's text — the
 * CQ-escaped `raw_message` of a value sent after "密码是", a group's history fetched by the
 * cron's backfill, and a group's name fetched by the cron's `get_group_info`.
 *
 * Each test has secrets of its own, so one path that leaks cannot make another test fail.
 */
import { env } from "cloudflare:workers";
import { OneBotHistoryClient } from "@src/adapters/onebot/onebot-history-client";
import { backfillJob } from "@src/composition/cron/onebot-backfill-job";
import { describe, it } from "vitest";
import { type FakeGroupMessage, FakeOneBotHistory } from "../fakes/fake-onebot-history";
import { resolvedSettings } from "../fakes/resolved-settings";
import { postOneBot, randomId } from "../support/credential-paths";
import { groupInfo, runGroupTitles } from "../support/group-titles";
import { oneBotMessage, SELF, text } from "../support/onebot-events";
import { turnDone } from "../support/qq-events";
import { registerChat } from "../support/sessions";
import { settled, storedAnywhere } from "../support/stored-anywhere";

describe("a credential a OneBot implementation hands over is stored nowhere", () => {
  it("a value sent after '密码是' is masked in raw_message too, where OneBot escapes & [ ]", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const user = randomId(30_000_000);
    const chatKey = `onebot:private:${user}`;
    const send = async (messageId: number, said: string, raw: string) => {
      const body = oneBotMessage({
        kind: "private",
        user,
        messageId,
        segments: [text(said)],
        rawMessage: raw,
      });
      expect((await postOneBot(body)).status).toBe(204);
      await turnDone(chatKey, `onebot:${SELF}:msg:${messageId}`, 20_000);
    };
    await send(randomId(1), "我家wifi密码是", "我家wifi密码是");
    // The segment holds the value as typed; raw_message holds it CQ-escaped (OneBot 11).
    await send(randomId(1), "Tp&link[5566]", "Tp&amp;link&#91;5566&#93;");
    await settled(chatKey);
    expect(await storedAnywhere(["Tp&link[5566]", "Tp&amp;link&#91;5566&#93;", "link&#91;5566"])).toEqual([]);
  });

  it("a group's history fetched by the backfill keeps no value sent after '密码是' in the message before", async ({
    expect,
  }) => {
    const group = randomId(610_000);
    const chatKey = `onebot:group:${group}`;
    const end = Math.floor(Date.now() / 1000) - 3600;
    const said = (i: number, userId: number, t: string): FakeGroupMessage => ({
      seq: 1000 + i,
      messageId: randomId(1),
      time: end + i * 60,
      userId,
      nick: `成员${userId % 10}`,
      text: t,
    });
    const fake = new FakeOneBotHistory();
    fake.add(group, [
      said(0, 20_001, "今晚谁来开黑"),
      said(1, 20_002, "我家wifi密码是"),
      said(2, 20_001, "我来"),
      // The announcer's next message, a minute later: the value alone, as a live chat masks it.
      said(3, 20_002, "Kv83mzLq"),
      said(4, 20_001, "好的"),
    ]);
    const client = new OneBotHistoryClient({
      apiBase: "http://onebot.test/",
      accessToken: "t",
      fetch: fake.fetch,
    });
    const report = await backfillJob(env, resolvedSettings({ follow: { groups: [chatKey] } }), client);
    expect(report).toMatchObject({ configured: true, failures: 0 });
    expect(await storedAnywhere(["Kv83mzLq"])).toEqual([]);
  });

  it("a group's name fetched by the cron's get_group_info keeps none in the chat registry", async ({
    expect,
  }) => {
    const group = randomId(500_000);
    const chatKey = `onebot:group:${group}`;
    await registerChat(chatKey, Date.now() + 5);
    const { report } = await runGroupTitles((id) => groupInfo(id, "宿舍群 wifi密码:dorm8866yes"));
    expect(report.named).toBeGreaterThanOrEqual(1);
    const title = await env.DB.prepare("SELECT title FROM chats WHERE chat_key = ?1")
      .bind(chatKey)
      .first<{ title: string | null }>();
    // Named all the same: the words around the secret stay.
    expect(title?.title).toContain("宿舍群");
    expect(await storedAnywhere(["dorm8866yes"])).toEqual([]);
  });
});
