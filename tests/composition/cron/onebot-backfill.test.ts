import { env, exports } from "cloudflare:workers";
import { OneBotHistoryClient } from "@src/adapters/onebot/onebot-history-client";
import { backfillJob } from "@src/composition/cron/onebot-backfill-job";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { type FakeGroupMessage, FakeOneBotHistory, wireMessage } from "../../fakes/fake-onebot-history";
import { resolvedSettings } from "../../fakes/resolved-settings";
import { adminApi } from "../../support/admin-api";
import { logQuery } from "../../support/object-log";
import { signedOneBotRequest } from "../../support/onebot-signing";
import { ADMIN_TOKEN } from "../../support/preview";
import { registerChat } from "../../support/sessions";
import { eventually } from "../../support/wait";

let nextGroup = 610_000 + Math.floor(Math.random() * 50_000);
const newGroup = () => nextGroup++;
/** A group not used before, and its chat key. */
const freshGroup = () => {
  const group = newGroup();
  return { group, chat: `onebot:group:${group}` };
};

/** `n` messages with seqs 1000…, one a minute ending an hour ago. */
function history(n: number, base = Math.floor(Math.random() * 2 ** 28)): FakeGroupMessage[] {
  const end = Math.floor(Date.now() / 1000) - 3600;
  return Array.from({ length: n }, (_, i) => ({
    seq: 1000 + i,
    messageId: base + i,
    time: end - (n - i) * 60,
    userId: 20_000 + (i % 3),
    nick: `成员${i % 3}`,
    text: `第${i}条历史消息`,
  }));
}

/** A group not used before whose history, on a fake OneBot API, holds `n` messages. */
function groupWithHistory(n: number) {
  const { group, chat } = freshGroup();
  const fake = new FakeOneBotHistory();
  const msgs = history(n);
  fake.add(group, msgs);
  return { group, chat, fake, msgs };
}

/** The group's log, where it lives: its own object (decision 0471). */
function rows(chatKey: string) {
  return logQuery<{ message_id: string; ts: number; text: string; raw_json: string | null }>(
    chatKey,
    "SELECT message_id, ts, text, raw_json FROM messages ORDER BY ts, seq",
  );
}

async function progressOf(chatKey: string) {
  return env.DB.prepare("SELECT * FROM backfill_progress WHERE chat_key = ?").bind(chatKey).first<{
    status: string;
    cursor: string | null;
    pages: number;
    stored: number;
    skipped: number;
    errors: number;
    last_error: string | null;
    done_reason: string | null;
  }>();
}

const client = (fake: FakeOneBotHistory) =>
  new OneBotHistoryClient({ apiBase: "http://onebot.test/", accessToken: "obtoken", fetch: fake.fetch });

describe("OneBot backfill", () => {
  it("pages back through a followed group's history and stores it through the log's unique key, once", async ({
    expect,
  }) => {
    const { group, chat, fake, msgs } = groupWithHistory(12);
    const settings = resolvedSettings({ follow: { groups: [chat] }, backfill: { pageSize: 5 } });

    const report = await backfillJob(env, settings, client(fake));
    expect(report).toMatchObject({ configured: true, finished: [chat], failures: 0 });
    const stored = await rows(chat);
    expect(stored.map((r) => r.message_id)).toEqual(msgs.map((m) => String(m.messageId)));
    expect(stored[0]?.ts).toBe((msgs[0]?.time ?? 0) * 1000);
    // Each sender is recorded as seen in the group, as a live message would be: a person's forget
    // finds the chats that hold their words by these sightings.
    const senders = new Set(msgs.map((m) => `onebot:user:${m.userId}`));
    const seen = await env.DB.prepare("SELECT account_key FROM account_observations WHERE chat_key = ?1")
      .bind(chat)
      .all<{ account_key: string }>();
    expect(new Set(seen.results.map((r) => r.account_key))).toEqual(senders);
    // Paged by message_seq: newest page first, each next page ending at the oldest seen.
    expect(fake.calls.map((c) => c.message_seq ?? null)).toEqual([null, 1007, 1003, 1000]);
    expect(
      fake.calls.every((c) => c.group_id === group && c.count === 5 && c.authorization === "Bearer obtoken"),
    ).toBe(true);
    expect(await progressOf(chat)).toMatchObject({
      status: "done",
      stored: 12,
      done_reason: "beginning of history",
    });

    // Done is done: the next run asks nothing.
    await backfillJob(env, settings, client(fake));
    expect(fake.calls).toHaveLength(4);
    expect(await rows(chat)).toHaveLength(12);
  });

  it("deduplicates against messages that arrived live, and masks credentials like live messages", async ({
    expect,
  }) => {
    const { group, chat } = freshGroup();
    const now = Math.floor(Date.now() / 1000);
    // The last two arrived live through the webhook first (a live event must be fresh).
    const msgs = history(4).map((m, i) => (i >= 2 ? { ...m, time: now - 10 + i } : m));
    const secret = { ...(msgs[1] as FakeGroupMessage), text: "服务器密码是 Hx7#kP2$wQ9m，别外传" };
    msgs[1] = secret;
    for (const m of msgs.slice(2)) {
      const res = await exports.default.fetch(
        await signedOneBotRequest("https://bot.test/webhook/onebot", JSON.stringify(wireMessage(group, m))),
      );
      expect(res.status).toBe(204);
    }
    await eventually(async () => ((await rows(chat)).length === 2 ? true : undefined));

    // The history holds the same messages, with the same ids and times.
    const fake = new FakeOneBotHistory();
    fake.add(group, msgs);
    await backfillJob(env, resolvedSettings({ follow: { groups: [chat] } }), client(fake));
    const after = await rows(chat);
    expect(after).toHaveLength(4);
    expect(new Set(after.map((r) => r.message_id)).size).toBe(4);
    const masked = after.find((r) => r.message_id === String(secret.messageId));
    expect(masked?.text).toContain(CREDENTIAL_MASK);
    expect(JSON.stringify(after)).not.toContain("Hx7#kP2$wQ9m");
  });

  it("resumes where an interrupted run stopped, and stops at the message bound", async ({ expect }) => {
    const { chat, fake, msgs } = groupWithHistory(30);
    const settings = resolvedSettings({
      follow: { groups: [chat] },
      backfill: { pageSize: 5, pagesPerRun: 2, maxMessages: 17 },
    });

    const first = await backfillJob(env, settings, client(fake));
    // The implementation includes the anchor message in each next page: 5 new, then 4.
    expect(first).toMatchObject({ pages: 2, stored: 9, waiting: 1 });
    expect(await progressOf(chat)).toMatchObject({ status: "running", cursor: "1021", stored: 9 });

    // The run after continues from the cursor; no page is fetched from the top again.
    await backfillJob(env, settings, client(fake));
    expect(fake.calls.map((c) => c.message_seq ?? null)).toEqual([null, 1025, 1021, 1017]);
    const progress = await progressOf(chat);
    expect(progress).toMatchObject({ status: "done", stored: 17, done_reason: "message bound" });
    // The newest 17 messages, nothing older.
    expect((await rows(chat)).map((r) => r.message_id)).toEqual(
      msgs.slice(13).map((m) => String(m.messageId)),
    );
  });

  it("records failed and malformed pages without losing progress, and retries them next run", async ({
    expect,
  }) => {
    const { group, chat, fake, msgs } = groupWithHistory(10);
    fake.add(group, [
      { ...(msgs[9] as FakeGroupMessage), seq: 1010, messageId: 1, own: true, text: "机器人的回复" },
    ]);
    const settings = resolvedSettings({ follow: { groups: [chat] }, backfill: { pageSize: 6 } });

    fake.failures.push({ http: 502 });
    expect(await backfillJob(env, settings, client(fake))).toMatchObject({ failures: 1, stored: 0 });
    expect(await progressOf(chat)).toMatchObject({ status: "running", cursor: null, errors: 1, stored: 0 });
    expect((await progressOf(chat))?.last_error).toContain("HTTP 502");

    // One good page, then a refusal: the good page's rows and cursor stay.
    const run2 = await backfillJob(env, settings, {
      page: async (id, before, count) => {
        const r = await client(fake).page(id, before, count);
        fake.failures.push({ retcode: 1200, wording: "消息不存在" });
        return r;
      },
    });
    expect(run2).toMatchObject({ stored: 5, failures: 1 });
    const mid = await progressOf(chat);
    // The bot's own message is skipped, not stored; its seq still moves the cursor.
    expect(mid).toMatchObject({ status: "running", cursor: "1005", stored: 5, skipped: 1, errors: 2 });
    expect(mid?.last_error).toContain("retcode 1200: 消息不存在");
    expect(await rows(chat)).toHaveLength(5);

    fake.failures.length = 0;
    fake.failures.push({ notJson: true });
    await backfillJob(env, settings, client(fake));
    expect((await progressOf(chat))?.last_error).toContain("not JSON");
    expect((await progressOf(chat))?.cursor).toBe("1005");

    await backfillJob(env, settings, client(fake));
    expect(await progressOf(chat)).toMatchObject({ status: "done", stored: 10, errors: 3 });
    expect((await rows(chat)).map((r) => r.message_id)).toEqual(msgs.map((m) => String(m.messageId)));
    expect(JSON.stringify(await rows(chat))).not.toContain("机器人的回复");
  });

  it("a failed backfill restarts from its cursor once, and what it fetches then deduplicates against live messages", async ({
    expect,
  }) => {
    const { group, chat } = freshGroup();
    const now = Math.floor(Date.now() / 1000);
    // Two older messages (seqs 1004, 1005) also arrived live, while the backfill stood failed.
    const msgs = history(12).map((m, i) => (i === 4 || i === 5 ? { ...m, time: now - 20 + i } : m));
    const fake = new FakeOneBotHistory();
    fake.add(group, msgs);
    // The cron's settings name the group; the Worker's (the restart's) follow "*", which covers
    // it once the live messages have put it in the chat registry.
    const settings = resolvedSettings({ follow: { groups: [chat] }, backfill: { pageSize: 5, maxPages: 3 } });

    // One good page, then failures until the page bound: the record fails.
    const flaky = {
      page: async (id: string, before: number | null, count: number) => {
        const r = await client(fake).page(id, before, count);
        fake.failures.push({ http: 503 });
        return r;
      },
    };
    await backfillJob(env, settings, flaky);
    await backfillJob(env, settings, client(fake));
    const failed = await progressOf(chat);
    expect(failed).toMatchObject({ status: "failed", cursor: "1007", pages: 3, errors: 2, stored: 5 });
    fake.failures.length = 0;
    // A failed record is not retried by the cron on its own.
    await backfillJob(env, settings, client(fake));
    expect(fake.calls).toHaveLength(3);

    for (const m of [msgs[4], msgs[5]] as FakeGroupMessage[]) {
      const res = await exports.default.fetch(
        await signedOneBotRequest("https://bot.test/webhook/onebot", JSON.stringify(wireMessage(group, m))),
      );
      expect(res.status).toBe(204);
    }
    await eventually(async () => ((await rows(chat)).length === 7 ? true : undefined));

    const restart = () => adminApi(`/backfill/${encodeURIComponent(chat)}/restart`, { method: "POST" });
    const first = await restart();
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      changed: true,
      progress: { status: "running", cursor: 1007 },
    });
    const running = await progressOf(chat);
    expect(running).toMatchObject({
      status: "running",
      cursor: "1007",
      stored: 5,
      restarts: 1,
      restart_pages: 3,
    });
    // Idempotent: a second restart changes nothing.
    const second = await restart();
    expect(await second.json()).toMatchObject({ changed: false });
    expect(await progressOf(chat)).toEqual(running);

    await backfillJob(env, settings, client(fake));
    // Resumed before the cursor: no page from the top again.
    expect(fake.calls.slice(3).map((c) => c.message_seq ?? null)).toEqual([1007, 1003, 1000]);
    expect(await progressOf(chat)).toMatchObject({ status: "done", done_reason: "beginning of history" });
    const after = await rows(chat);
    expect(after.map((r) => r.message_id).sort()).toEqual(msgs.map((m) => String(m.messageId)).sort());

    // Done is not restarted; bad keys and unknown groups are refused; nothing changes.
    const done = await progressOf(chat);
    const refused = await restart();
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid", field: "status" });
    for (const [key, status] of [
      ["qq:group:G1", 400],
      ["onebot:private:123", 400],
      [`onebot:group:${newGroup()}`, 404],
    ] as const) {
      const res = await adminApi(`/backfill/${encodeURIComponent(key)}/restart`, { method: "POST" });
      expect(res.status).toBe(status);
    }
    expect(await progressOf(chat)).toEqual(done);
    const audit = await env.DB.prepare(
      "SELECT actor, detail FROM audit_log WHERE action = 'backfill.restart' AND target = ?1 ORDER BY id",
    )
      .bind(chat)
      .all<{ actor: string; detail: string }>();
    expect(audit.results.map((r) => JSON.parse(r.detail).outcome)).toEqual(["ok", "ok", "refused"]);
    expect(audit.results.every((r) => r.actor.length > 0)).toBe(true);
  });

  it("leaves unfollowed groups alone, follows '*' through the chat registry, and reports progress at /api/backfill", async ({
    expect,
  }) => {
    const followed = newGroup();
    const unfollowed = newGroup();
    const fake = new FakeOneBotHistory();
    fake.add(followed, history(3));
    fake.add(unfollowed, history(3));
    await registerChat(`onebot:group:${followed}`, 0);
    await backfillJob(
      env,
      resolvedSettings({ follow: { groups: [`onebot:group:${followed}`] } }),
      client(fake),
    );
    expect(fake.calls.every((c) => c.group_id === followed)).toBe(true);
    expect(await rows(`onebot:group:${unfollowed}`)).toHaveLength(0);
    expect(await progressOf(`onebot:group:${unfollowed}`)).toBeNull();

    // "*" reaches a group once the registry has seen it.
    await backfillJob(env, resolvedSettings({ follow: { groups: ["*"] } }), client(fake));
    expect(await progressOf(`onebot:group:${followed}`)).toMatchObject({ status: "done", stored: 3 });

    const res = await exports.default.fetch(
      new Request("https://bot.test/api/backfill", { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { configured: boolean; groups: { chatKey: string; status: string }[] };
    // No ONEBOT_API_BASE in the test Worker: the cron would not run it.
    expect(body.configured).toBe(false);
    expect(body.groups).toContainEqual(
      expect.objectContaining({ chatKey: `onebot:group:${followed}`, status: "done", stored: 3 }),
    );
    const unauthorized = await exports.default.fetch(new Request("https://bot.test/api/backfill"));
    expect(unauthorized.status).toBe(401);
  });

  it("stops at the group retention window: older messages would only be swept away", async ({ expect }) => {
    const { group, chat } = freshGroup();
    const fake = new FakeOneBotHistory();
    const msgs = history(6);
    const day = 86_400;
    // The first three are older than a 30-day retention.
    const dated = msgs.map((m, i) => (i < 3 ? { ...m, time: m.time - 40 * day } : m));
    fake.add(group, dated);
    const settings = resolvedSettings({
      follow: { groups: [chat] },
      retention: { groupDays: 30 },
      backfill: { pageSize: 4 },
    });
    await backfillJob(env, settings, client(fake));
    expect(await progressOf(chat)).toMatchObject({
      status: "done",
      done_reason: "retention window",
      stored: 3,
    });
    expect((await rows(chat)).map((r) => r.message_id)).toEqual(
      dated.slice(3).map((m) => String(m.messageId)),
    );
  });

  it("without a OneBot API it does nothing", async ({ expect }) => {
    const report = await backfillJob(env, resolvedSettings({ follow: { groups: ["*"] } }), null);
    expect(report).toEqual({
      configured: false,
      pages: 0,
      stored: 0,
      failures: 0,
      finished: [],
      waiting: 0,
      failed: [],
    });
  });
});
