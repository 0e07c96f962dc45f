// The OneBot backfill skips a left-out person's history (privacy.doNotRecord), by the code
// alone: the list is given in the settings of the run, not stored in D1, so the log's triggers
// (migration 0310) cannot be what keeps it out. The others' history is stored, and masked.
import { env } from "cloudflare:workers";
import { OneBotHistoryClient } from "@src/adapters/onebot/onebot-history-client";
import { backfillJob } from "@src/composition/cron/onebot-backfill-job";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { it } from "vitest";
import { type FakeGroupMessage, FakeOneBotHistory } from "../fakes/fake-onebot-history";
import { resolvedSettings } from "../fakes/resolved-settings";
import { logQuery } from "../support/object-log";

it("stores the group's history without one message of the left-out member", async ({ expect }) => {
  const group = 680_000 + Math.floor(Math.random() * 50_000);
  const chat = `onebot:group:${group}`;
  const end = Math.floor(Date.now() / 1000) - 3600;
  const base = Math.floor(Math.random() * 2 ** 28);
  const msgs: FakeGroupMessage[] = Array.from({ length: 9 }, (_, i) => ({
    seq: 1000 + i,
    messageId: base + i,
    time: end - (9 - i) * 60,
    userId: 30_000 + (i % 3),
    nick: `成员${i % 3}`,
    text: i === 3 ? "我的密码是 sk-abcdefghijklmnopqrstuvwxyz123456" : `第${i}条历史消息`,
  }));
  const fake = new FakeOneBotHistory();
  fake.add(group, msgs);
  const settings = resolvedSettings({
    follow: { groups: [chat] },
    backfill: { pageSize: 4 },
    privacy: { doNotRecord: ["onebot:user:30001"] },
  });
  const client = new OneBotHistoryClient({
    apiBase: "http://onebot.test/",
    accessToken: "t",
    fetch: fake.fetch,
  });

  const report = await backfillJob(env, settings, client);
  expect(report).toMatchObject({ finished: [chat], failures: 0 });
  // The group's log, in its own object; D1 gets no copy of a chat whose log lives there.
  const results = await logQuery<{ account_key: string; text: string }>(
    chat,
    "SELECT account_key, text FROM messages ORDER BY ts",
  );
  expect(
    await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE chat_key = ?1").bind(chat).first("n"),
  ).toBe(0);
  expect(results.map((r) => r.account_key)).not.toContain("onebot:user:30001");
  expect(results).toHaveLength(6);
  expect(results.map((r) => r.text).join("\n")).toContain(CREDENTIAL_MASK);
  expect(results.map((r) => r.text).join("\n")).not.toContain("sk-abcdefghijklmnopqrstuvwxyz123456");
});
