// The chat object's log keeps a chat's messages for its retention (its own override, else the
// default for its type) and loses the older ones once a day, in small transactions, with every
// index the log's triggers keep (full text, turn windows, sessions, senders) in step.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { outboundRecord } from "@src/domain/history/message-record";
import { chatMatchExpression } from "@src/domain/text/chat-search-tokens";
import { ChatMeta } from "@src/durable-objects/chat-meta";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { LocalLog } from "@src/durable-objects/local-log";
import { DAY_MS, LogRetention, type LogRetentionLimits } from "@src/durable-objects/log-retention";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../support/chat-object";
import { objectLogRows } from "../support/object-log";
import { messageRowsOnceThere, sayInPrivate } from "../support/qq-events";
import { eventually } from "../support/wait";

const NOW = Date.UTC(2026, 5, 1, 12);
const MINUTE = 60_000;

type Seed = { id: string; at: number; text: string };

function seed(storage: DurableObjectStorage, chat: string, rows: readonly Seed[]): void {
  const [channel, targetType, targetId] = chat.split(":");
  new ChatMeta(storage.sql).set("chat", { key: chat, channel, targetType, targetId });
  const log = new LocalLog(storage.sql);
  for (const r of rows)
    log.append(
      outboundRecord({
        transport: "qq",
        chatKey: chat,
        messageId: r.id,
        ts: r.at,
        text: r.text,
        botName: "Akasha",
      }),
    );
}

/** A retention over the object's storage; `reads` counts its statements and override reads. */
function retentionOver(
  storage: DurableObjectStorage,
  override: () => Promise<number | null> = async () => null,
  limits?: LogRetentionLimits,
  waiting: () => boolean = () => false,
) {
  const reads = { statements: 0, overrides: 0 };
  const sql = {
    exec: (query: string, ...bindings: unknown[]) => {
      reads.statements++;
      return storage.sql.exec(query, ...bindings);
    },
  } as SqlStorage;
  const retention = new LogRetention(
    {
      sql,
      storage,
      meta: new ChatMeta(sql),
      services: () => ({
        retentionOverride: () => {
          reads.overrides++;
          return override();
        },
      }),
      inbox: { oldestUntriaged: () => (waiting() ? { receivedAt: NOW, needsTurn: true } : null) },
    },
    limits,
  );
  return { retention, reads };
}

const ids = (storage: DurableObjectStorage) =>
  storage.sql
    .exec<{ message_id: string }>("SELECT message_id FROM messages ORDER BY ts, seq")
    .toArray()
    .map((r) => r.message_id);

const windowHits = (storage: DurableObjectStorage, chat: string, word: string) =>
  storage.sql
    .exec(
      "SELECT rowid FROM message_windows_fts WHERE message_windows_fts MATCH ?",
      chatMatchExpression(chat, word),
    )
    .toArray().length;

const count = (storage: DurableObjectStorage, query: string) =>
  storage.sql.exec<{ n: number | null }>(query).one().n ?? 0;

describe("retention of the chat object's log", () => {
  it("keeps a group's messages 90 days by default and deletes the older ones", async ({ expect }) => {
    await inFreshChatObject(async (storage) => {
      const chat = "qq:group:RETG";
      seed(storage, chat, [
        { id: "old", at: NOW - 91 * DAY_MS, text: "三个月前的菠萝" },
        { id: "edge", at: NOW - 89 * DAY_MS, text: "还在保留期内" },
        { id: "new", at: NOW - DAY_MS, text: "昨天的芒果" },
      ]);
      const { retention } = retentionOver(storage);
      expect(await retention.runIfDue(DEFAULT_SETTINGS, NOW)).toEqual({
        deleted: 1,
        complete: true,
        days: 90,
      });
      expect(ids(storage)).toEqual(["edge", "new"]);
      expect(windowHits(storage, chat, "菠萝")).toBe(0);
      expect(windowHits(storage, chat, "芒果")).toBe(1);
    });
  });

  it("keeps a private chat's messages 180 days by default", async ({ expect }) => {
    await inFreshChatObject(async (storage) => {
      seed(storage, "qq:private:RETP", [
        { id: "old", at: NOW - 181 * DAY_MS, text: "半年多以前" },
        { id: "kept", at: NOW - 120 * DAY_MS, text: "四个月前，群里早就删了" },
      ]);
      const { retention } = retentionOver(storage);
      expect(await retention.runIfDue(DEFAULT_SETTINGS, NOW)).toMatchObject({ deleted: 1, days: 180 });
      expect(ids(storage)).toEqual(["kept"]);
    });
  });

  it("follows the chat's own retention, longer or shorter than the default", async ({ expect }) => {
    for (const { chat, days, rows, deleted, kept } of [
      {
        chat: "qq:group:RETO1",
        days: 365,
        rows: [
          { id: "a", at: NOW - 200 * DAY_MS, text: "两百天前" },
          { id: "b", at: NOW - 100 * DAY_MS, text: "一百天前" },
        ],
        deleted: 0,
        kept: ["a", "b"],
      },
      {
        chat: "qq:group:RETO2",
        days: 7,
        rows: [
          { id: "a", at: NOW - 8 * DAY_MS, text: "八天前" },
          { id: "b", at: NOW - 6 * DAY_MS, text: "六天前" },
        ],
        deleted: 1,
        kept: ["b"],
      },
    ])
      await inFreshChatObject(async (storage) => {
        seed(storage, chat, rows);
        const { retention } = retentionOver(storage, async () => days);
        expect(await retention.runIfDue(DEFAULT_SETTINGS, NOW)).toMatchObject({ deleted, days });
        expect(ids(storage)).toEqual(kept);
      });
  });

  it("reads an unusable override as the default, and deletes nothing while the override cannot be read", async ({
    expect,
  }) => {
    await inFreshChatObject(async (storage) => {
      seed(storage, "qq:group:RETU", [
        { id: "a", at: NOW - 95 * DAY_MS, text: "九十五天前" },
        { id: "b", at: NOW - 30 * DAY_MS, text: "一个月前" },
      ]);
      const failing = retentionOver(storage, async () => {
        throw new Error("D1 unavailable");
      });
      await expect(failing.retention.runIfDue(DEFAULT_SETTINGS, NOW)).rejects.toThrow("D1 unavailable");
      expect(ids(storage)).toEqual(["a", "b"]);
      // Tried again an hour later, not at every alarm in between.
      expect(failing.retention.dueAt(NOW + 1)).toBe(NOW + 60 * MINUTE);
      const unusable = retentionOver(storage, async () => Number.NaN);
      expect(await unusable.retention.runIfDue(DEFAULT_SETTINGS, NOW + 60 * MINUTE)).toMatchObject({
        deleted: 1,
        days: 90,
      });
      expect(ids(storage)).toEqual(["b"]);
    });
  });

  it("deletes a large backlog a chunk per run, with full text, windows, sessions and senders in step", async ({
    expect,
  }) => {
    await inFreshChatObject(async (storage) => {
      const chat = "qq:group:RETBIG";
      const cutoff = NOW - 90 * DAY_MS;
      const old: Seed[] = Array.from({ length: 1200 }, (_, i) => ({
        id: `o${i}`,
        at: cutoff - (1200 - i) * MINUTE,
        text: `旧消息${i} 菠萝`,
      }));
      // The first kept message sits right after the last deleted one: its window held the
      // deleted message's words and must lose them.
      const young: Seed[] = [
        { id: "y0", at: cutoff + MINUTE, text: "刚好留下的芒果" },
        { id: "y1", at: NOW - DAY_MS, text: "昨天的芒果" },
      ];
      seed(storage, chat, [...old, ...young]);
      expect(windowHits(storage, chat, "菠萝")).toBe(1201);
      const { retention, reads } = retentionOver(storage, async () => null, {
        chunk: 500,
        chunksPerAlarm: 1,
      });
      const runs = [];
      for (let i = 0; i < 3; i++) {
        expect(retention.dueAt(NOW + i)).toBe(NOW + i);
        runs.push(await retention.runIfDue(DEFAULT_SETTINGS, NOW + i));
      }
      expect(runs.map((r) => [r?.deleted, r?.complete])).toEqual([
        [500, false],
        [500, false],
        [200, true],
      ]);
      // One override read for the whole run, not one per continuation.
      expect(reads.overrides).toBe(1);
      expect(ids(storage)).toEqual(["y0", "y1"]);
      expect(windowHits(storage, chat, "菠萝")).toBe(0);
      expect(windowHits(storage, chat, "芒果")).toBe(2);
      expect(count(storage, "SELECT count(*) AS n FROM messages_fts")).toBe(2);
      expect(count(storage, "SELECT count(*) AS n FROM message_windows")).toBe(2);
      expect(count(storage, "SELECT sum(messages) AS n FROM conversation_sessions")).toBe(2);
      expect(count(storage, "SELECT min(first_ts) AS n FROM conversation_sessions")).toBe(cutoff + MINUTE);
      expect(count(storage, "SELECT sum(messages) AS n FROM message_senders")).toBe(2);
      expect(retention.dueAt(NOW + 3)).toBe(NOW + DAY_MS);
    });
  });

  it("stops between chunks when a turn waits, and continues at the next alarm", async ({ expect }) => {
    await inFreshChatObject(async (storage) => {
      const old = Array.from({ length: 30 }, (_, i) => ({
        id: `o${i}`,
        at: NOW - 100 * DAY_MS + i,
        text: "旧",
      }));
      seed(storage, "qq:group:RETWAIT", old);
      // A turn arrives while the first chunk is deleted.
      const { retention } = retentionOver(storage, undefined, { chunk: 10, chunksPerAlarm: 4 }, () => true);
      expect(await retention.runIfDue(DEFAULT_SETTINGS, NOW)).toMatchObject({ deleted: 10, complete: false });
      expect(retention.dueAt(NOW + 1)).toBe(NOW + 1);
      const next = retentionOver(storage, undefined, { chunk: 10, chunksPerAlarm: 4 });
      expect(await next.retention.runIfDue(DEFAULT_SETTINGS, NOW + 1)).toMatchObject({
        deleted: 20,
        complete: true,
      });
      expect(next.reads.overrides).toBe(0);
    });
  });

  it("runs once a day: a second alarm the same day reads two small rows and deletes nothing", async ({
    expect,
  }) => {
    await inFreshChatObject(async (storage) => {
      seed(storage, "qq:group:RETDAY", [
        { id: "a", at: NOW - 91 * DAY_MS, text: "九十一天前" },
        { id: "b", at: NOW - 89.5 * DAY_MS, text: "明天就到期" },
      ]);
      const { retention, reads } = retentionOver(storage);
      expect(await retention.runIfDue(DEFAULT_SETTINGS, NOW)).toMatchObject({ deleted: 1 });
      const before = { ...reads };
      expect(await retention.runIfDue(DEFAULT_SETTINGS, NOW + 20 * 60 * MINUTE)).toBeNull();
      expect(reads.overrides).toBe(before.overrides);
      expect(reads.statements - before.statements).toBeLessThanOrEqual(2);
      expect(ids(storage)).toEqual(["b"]);
      expect(await retention.runIfDue(DEFAULT_SETTINGS, NOW + DAY_MS)).toMatchObject({ deleted: 1 });
      expect(ids(storage)).toEqual([]);
      // An empty log needs no alarm.
      expect(retention.dueAt(NOW + DAY_MS)).toBeNull();
    });
  });

  it("wakes an idle chat's object once a day and applies the chat's retention from D1", async ({
    expect,
  }) => {
    const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
    const chat = `qq:private:${user}`;
    await sayInPrivate(user, "记一下：周五交报告");
    await messageRowsOnceThere(chat, 2);
    const stub = env.CHAT_SESSION.getByName(chat);
    // Once the turn is answered and flushed, the one alarm left is retention's, a day out.
    const daily = await eventually(() =>
      runInDurableObject(stub, async (_o: ChatSession, state) => {
        const at = await state.storage.getAlarm();
        return at !== null && at > Date.now() + DAY_MS / 2 ? at : undefined;
      }),
    );
    expect(daily).toBeLessThanOrEqual(Date.now() + DAY_MS);
    // Both messages are now 200 days old and the day's run is forgotten; the daily alarm runs at
    // once. The chat keeps its log a year: nothing goes.
    const override = (days: number | null) =>
      env.DB.prepare("UPDATE chats SET retention_days = ? WHERE chat_key = ?").bind(days, chat).run();
    // The chat's registry row reached D1 with the turn's flush.
    expect((await override(365)).meta.changes).toBe(1);
    const ageAndWake = () =>
      runInDurableObject(stub, async (_o: ChatSession, state) => {
        state.storage.sql.exec("UPDATE messages SET ts = ?", Date.now() - 200 * DAY_MS);
        state.storage.sql.exec("DELETE FROM meta WHERE key = 'log_retention'");
      });
    await ageAndWake();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await objectLogRows(chat)).toHaveLength(2);
    // It did run (its day is recorded), with the chat's year.
    const ran = await runInDurableObject(stub, (_o: ChatSession, state) =>
      new ChatMeta(state.storage.sql).get<{ cutoff: number | null }>("log_retention"),
    );
    expect(ran).toMatchObject({ cutoff: null });
    // Back to the default for a private chat (180 days): both go.
    await override(null);
    await ageAndWake();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await objectLogRows(chat)).toEqual([]);
  });
});
