import { env } from "cloudflare:workers";
import { D1MessageLog } from "@src/adapters/d1/d1-message-log";
import { openDatabase } from "@src/adapters/d1/database";
import { historySearch } from "@src/composition/common/history-search";
import { outboundRecord } from "@src/domain/history/message-record";
import { chatMatchExpression } from "@src/domain/text/chat-search-tokens";
import { runScheduled } from "@src/workers/scheduled";
import { describe, it } from "vitest";
import { failFirstFlush } from "../support/failing-flush";
import {
  c2cBody,
  d1MessageRows,
  eventIdOf,
  messageRows,
  messageRowsOnceThere,
  postQq,
  turnDone,
} from "../support/qq-events";
import { eventually } from "../support/wait";

const DAY = 86_400_000;

describe("message log", () => {
  it("loses no row when a D1 flush fails and a later one succeeds; the chat's log never waited for it", async ({
    expect,
  }) => {
    const flushes = failFirstFlush();
    const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
    const body = c2cBody({ user, text: "记得我" });
    expect((await postQq(body)).status).toBe(200);
    await turnDone(`qq:private:${user}`, eventIdOf(body));
    const stub = env.CHAT_SESSION.getByName(`qq:private:${user}`);
    await eventually(async () => flushes.tried() >= 1, 5000, "the first flush");
    // The messages are in the chat's own log whatever D1 does.
    const rows = await messageRowsOnceThere(`qq:private:${user}`, 2, 15_000, "the chat's log");
    expect(rows.map((r) => r.direction)).toEqual(["in", "out"]);
    // D1's rows of the turn (the chat's registry row) arrive with the retried flush, none lost.
    await eventually(
      async () => ((await stub.stats()).unflushed === 0 && flushes.tried() >= 2 ? true : undefined),
      15_000,
      "the retried flush",
    );
    const chat = await env.DB.prepare("SELECT chat_key FROM chats WHERE chat_key = ?1")
      .bind(`qq:private:${user}`)
      .first<{ chat_key: string }>();
    expect(chat?.chat_key).toBe(`qq:private:${user}`);
    expect(await stub.stats()).toMatchObject({ unflushed: 0, flushFailures: 0 });
  });

  it("writes a flush batch idempotently (a retried batch adds nothing)", async ({ expect }) => {
    const log = new D1MessageLog(openDatabase(env.DB));
    const chatKey = `qq:group:${crypto.randomUUID()}`;
    const record = outboundRecord({
      transport: "qq",
      chatKey,
      messageId: "m1",
      ts: 1000,
      text: "你好",
      botName: "Akasha",
    });
    const touch = {
      chatKey,
      channel: "qq",
      targetType: "group",
      targetId: "x",
      seenAt: 1000,
      followed: true,
    };
    const batch = { messages: [record], recalls: [], chats: [touch], usage: [], audit: [] };
    await log.flush(batch);
    await log.flush(batch);
    expect(await d1MessageRows(chatKey)).toHaveLength(1);
  });

  it("finds Chinese messages by a two-character word, only in the asked chat", async ({ expect }) => {
    const log = new D1MessageLog(openDatabase(env.DB));
    const a = `qq:group:${crypto.randomUUID()}`;
    const b = `qq:group:${crypto.randomUUID()}`;
    const rec = (chatKey: string, id: string, text: string) =>
      outboundRecord({ transport: "qq", chatKey, messageId: id, ts: Date.now(), text, botName: "x" });
    await log.flush({
      messages: [rec(a, "1", "明天下午三点开会"), rec(a, "2", "今天吃什么"), rec(b, "3", "我们也要开会")],
      recalls: [],
      chats: [],
      usage: [],
      audit: [],
    });
    const search = historySearch(env);
    const hits = await search.search({ chatKey: a, reader: a, text: "开会", limit: 5 });
    // The chat's other message, the next turn, matches through its turn window; chat B's never does.
    expect(hits.map((h) => h.text).sort()).toEqual(["今天吃什么", "明天下午三点开会"].sort());
    expect(hits.every((h) => h.chatKey === a)).toBe(true);
    const syntax = await search.search({ chatKey: a, reader: a, text: '"* NEAR( -开会:', limit: 5 });
    expect(syntax.map((h) => h.text)).toContain("明天下午三点开会");
    expect(syntax.every((h) => h.chatKey === a)).toBe(true);
  });

  it("retention deletes only expired rows, by chat type and per-chat override", async ({ expect }) => {
    const now = Date.now();
    const log = new D1MessageLog(openDatabase(env.DB));
    const id = crypto.randomUUID();
    const group = `qq:group:ret${id}`;
    const priv = `qq:private:ret${id}`;
    const short = `qq:group:short${id}`;
    const row = (chatKey: string, messageId: string, ageDays: number) =>
      outboundRecord({
        transport: "qq",
        chatKey,
        messageId,
        ts: now - ageDays * DAY,
        text: "x",
        botName: "b",
      });
    const touch = (chatKey: string, targetType: string) => ({
      chatKey,
      channel: "qq",
      targetType,
      targetId: chatKey.split(":")[2] ?? "",
      seenAt: now,
      followed: true,
    });
    await log.flush({
      messages: [
        row(group, "g-old", 91),
        row(group, "g-new", 89),
        row(priv, "p-mid", 120),
        row(priv, "p-old", 181),
        row(short, "s-8", 8),
        row(short, "s-6", 6),
      ],
      recalls: [],
      chats: [touch(group, "group"), touch(priv, "private"), touch(short, "group")],
      usage: [],
      audit: [],
    });
    await env.DB.prepare("UPDATE chats SET retention_days = 7 WHERE chat_key = ?").bind(short).run();
    await runScheduled(env, now);
    const ids = async (chatKey: string) => (await d1MessageRows(chatKey)).map((r) => r.message_id).sort();
    expect(await ids(group)).toEqual(["g-new"]);
    expect(await ids(priv)).toEqual(["p-mid"]);
    expect(await ids(short)).toEqual(["s-6"]);
    // FTS rows go with their messages (the delete trigger): the index finds only survivors.
    const indexed = async (chatKey: string) => {
      const { results } = await env.DB.prepare("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?")
        .bind(chatMatchExpression(chatKey, "x"))
        .all<{ rowid: number }>();
      return results.length;
    };
    expect([await indexed(group), await indexed(priv), await indexed(short)]).toEqual([1, 1, 1]);
    const orphans = await env.DB.prepare(
      "SELECT count(*) AS n FROM messages_fts WHERE rowid NOT IN (SELECT seq FROM messages)",
    ).first<{
      n: number;
    }>();
    expect(orphans?.n).toBe(0);
  });
});
