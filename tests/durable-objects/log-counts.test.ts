import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { D1AdminStats } from "@src/adapters/d1/d1-admin-stats";
import { D1DailySummaries } from "@src/adapters/d1/d1-daily-summaries";
import { D1MessageLog } from "@src/adapters/d1/d1-message-log";
import { openDatabase } from "@src/adapters/d1/database";
import { DEFAULT_SETTINGS, type Settings } from "@src/domain/config/settings";
import type { ChatLogCounts, FlushBatch, MessageLog } from "@src/domain/history/message-log";
import { outboundRecord } from "@src/domain/history/message-record";
import { lastDays } from "@src/domain/kernel/local-day";
import { silentLogger } from "@src/domain/kernel/logger";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { LocalLog } from "@src/durable-objects/local-log";
import { LogCounts } from "@src/durable-objects/log-counts";
import { LogFlusher } from "@src/durable-objects/log-flusher";
import { Outbox } from "@src/durable-objects/outbox";
import { describe, it, vi } from "vitest";
import { inFreshChatObject } from "../support/chat-object";
import { failFirstFlush } from "../support/failing-flush";
import { c2cBody, eventIdOf, postQq, turnDone } from "../support/qq-events";
import { eventually } from "../support/wait";

const HOUR = 3_600_000;

/** D1's hourly counts of a chat, and its summary row. */
async function d1Counts(chatKey: string) {
  const { results } = await env.DB.prepare(
    "SELECT hour, messages FROM chat_log_counts WHERE chat_key = ? ORDER BY hour",
  )
    .bind(chatKey)
    .all<{ hour: number; messages: number }>();
  const summary = await env.DB.prepare(
    "SELECT last_message_at AS lastAt, in_object AS inObject FROM chat_log_summary WHERE chat_key = ?",
  )
    .bind(chatKey)
    .first<{ lastAt: number | null; inObject: number }>();
  return { hours: results, summary };
}

const total = (hours: readonly { messages: number }[]) => hours.reduce((n, h) => n + h.messages, 0);

/** The object's own view: counts per hour, what is still dirty, and its log's rows. */
function objectCounts(chatKey: string) {
  return runInDurableObject(env.CHAT_SESSION.getByName(chatKey), (_o: ChatSession, state) => ({
    counts: state.storage.sql
      .exec<{ hour: number; messages: number; dirty: number }>(
        "SELECT hour, messages, dirty FROM log_counts ORDER BY hour",
      )
      .toArray(),
    rows: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages").one().n,
    lastAt: state.storage.sql.exec<{ t: number }>("SELECT max(ts) AS t FROM messages").one().t,
  }));
}

async function privateChatWithTwoMessages() {
  const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
  const chatKey = `qq:private:${user}`;
  const body = c2cBody({ user, text: "数一数我的消息" });
  expect200(await postQq(body));
  await turnDone(chatKey, eventIdOf(body));
  return chatKey;
}

function expect200(res: Response) {
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
}

describe("the log's hourly counts in D1", () => {
  it("reach D1 with the object's flush: its message and the reply, in their hour, and the last message's time", async ({
    expect,
  }) => {
    const chatKey = await privateChatWithTwoMessages();
    const local = await eventually(
      async () => {
        const o = await objectCounts(chatKey);
        return o.rows === 2 && o.counts.every((c) => c.dirty === 0) ? o : undefined;
      },
      15_000,
      "the object's counts flushed",
    );
    expect(total(local.counts)).toBe(2);
    for (const c of local.counts) expect(c.hour % HOUR).toBe(0);
    const d1 = await d1Counts(chatKey);
    expect(d1.hours).toEqual(local.counts.map(({ hour, messages }) => ({ hour, messages })));
    expect(d1.summary).toEqual({ lastAt: local.lastAt, inObject: 1 });
  });

  it("count a chat whose rows D1 no longer gets in the overview's total, its day, and the day's pending summaries, after a failed flush was retried", async ({
    expect,
  }) => {
    const flushes = failFirstFlush((batch) => Boolean(batch.counts?.length));
    const days = lastDays(Date.now(), "UTC", 1);
    const stats = new D1AdminStats(env.DB);
    const before = await stats.stats(days);
    const chatKey = await privateChatWithTwoMessages();
    await eventually(async () => total((await d1Counts(chatKey)).hours) === 2, 15_000, "the retried flush");
    expect(flushes.tried()).toBeGreaterThanOrEqual(2);
    vi.restoreAllMocks();
    // D1's log holds none of the chat's rows: the counts are all the overview has of it.
    const inD1 = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE chat_key = ?")
      .bind(chatKey)
      .first();
    expect(inD1).toEqual({ n: 0 });
    const after = await stats.stats(days);
    expect(after.messages - before.messages).toBe(2);
    const today = (s: typeof before) => s.messagesByDay.find((d) => d.day === days[0]?.day)?.messages ?? 0;
    expect(today(after) - today(before)).toBe(2);
    const { start, end, day } = days[0] ?? { start: 0, end: 0, day: "" };
    const pending = await new D1DailySummaries(env.DB).pendingChats(day, start, end, 10_000);
    expect(pending.find((p) => p.chatKey === chatKey)).toEqual({ chatKey, messages: 2 });
    const kept = await stats.keptMessages();
    expect(kept.find((k) => k.targetType === "private")?.messages).toBeGreaterThanOrEqual(2);
  });

  it("lowers D1's counts after a delete in the object (retention, forget) and the next flush", async ({
    expect,
  }) => {
    const chatKey = await privateChatWithTwoMessages();
    await eventually(async () => total((await d1Counts(chatKey)).hours) === 2, 15_000, "the first flush");
    // As retention's cut does: one row leaves the object's log.
    const stub = env.CHAT_SESSION.getByName(chatKey);
    await runInDurableObject(stub, (_o: ChatSession, state) => {
      state.storage.sql.exec("DELETE FROM messages WHERE seq = (SELECT min(seq) FROM messages)");
    });
    await runInDurableObject(stub, async (o: ChatSession) => o.alarm());
    await eventually(async () => total((await d1Counts(chatKey)).hours) === 1, 15_000, "the cut flushed");
    // A forget empties the log: D1 keeps no hour of the chat and no last message.
    await stub.forgetLocal();
    const after = await eventually(
      async () => {
        const d = await d1Counts(chatKey);
        return d.hours.length === 0 ? d : undefined;
      },
      15_000,
      "the forget flushed",
    );
    expect(after.summary).toEqual({ lastAt: null, inObject: 1 });
    expect((await objectCounts(chatKey)).counts).toEqual([]);
  });
});

describe("D1MessageLog's counts", () => {
  const log = () => new D1MessageLog(openDatabase(env.DB));
  const empty = { messages: [], recalls: [], chats: [], usage: [], audit: [] };
  const h = (n: number) => 1_700_000_000_000 - (1_700_000_000_000 % HOUR) + n * HOUR;

  it("leaves the same counts when a batch is written again, and drops an emptied hour", async ({
    expect,
  }) => {
    const chatKey = `qq:group:${crypto.randomUUID()}`;
    const counts: ChatLogCounts = {
      chatKey,
      hours: [
        { hour: h(0), messages: 3 },
        { hour: h(1), messages: 5 },
      ],
      lastAt: h(1) + 10,
      whole: true,
    };
    await log().flush({ ...empty, counts: [counts] });
    await log().flush({ ...empty, counts: [counts] });
    expect((await d1Counts(chatKey)).hours).toEqual([
      { hour: h(0), messages: 3 },
      { hour: h(1), messages: 5 },
    ]);
    const emptied = { ...counts, hours: [{ hour: h(0), messages: 0 }] };
    await log().flush({ ...empty, counts: [emptied] });
    await log().flush({ ...empty, counts: [emptied] });
    expect(await d1Counts(chatKey)).toEqual({
      hours: [{ hour: h(1), messages: 5 }],
      summary: { lastAt: h(1) + 10, inObject: 1 },
    });
  });

  it("counts D1's own rows by trigger until the object's first batch replaces them, and again after it hands them back", async ({
    expect,
  }) => {
    const chatKey = `qq:group:${crypto.randomUUID()}`;
    const row = (id: string, ts: number) =>
      outboundRecord({ transport: "qq", chatKey, messageId: id, ts, text: "x", botName: "b" });
    await log().flush({ ...empty, messages: [row("a", h(0) + 1), row("b", h(0) + 2), row("c", h(2))] });
    expect(await d1Counts(chatKey)).toEqual({
      hours: [
        { hour: h(0), messages: 2 },
        { hour: h(2), messages: 1 },
      ],
      summary: { lastAt: h(2), inObject: 0 },
    });
    await env.DB.prepare("DELETE FROM messages WHERE chat_key = ? AND message_id = 'c'").bind(chatKey).run();
    expect(await d1Counts(chatKey)).toEqual({
      hours: [{ hour: h(0), messages: 2 }],
      summary: { lastAt: h(0) + 2, inObject: 0 },
    });
    // The object holds the whole log now: its counts replace D1's, and D1's rows count no more.
    await log().flush({
      ...empty,
      counts: [{ chatKey, hours: [{ hour: h(1), messages: 4 }], lastAt: h(1) + 5, whole: true }],
    });
    await log().flush({ ...empty, messages: [row("d", h(3))] });
    expect(await d1Counts(chatKey)).toEqual({
      hours: [{ hour: h(1), messages: 4 }],
      summary: { lastAt: h(1) + 5, inObject: 1 },
    });
    // Read from D1 again: D1 recounts its own rows and counts them from then on.
    await log().flush({ ...empty, counts: [{ chatKey, hours: [], lastAt: null, whole: false }] });
    expect(await d1Counts(chatKey)).toEqual({
      hours: [
        { hour: h(0), messages: 2 },
        { hour: h(3), messages: 1 },
      ],
      summary: { lastAt: h(3), inObject: 0 },
    });
  });
});

describe("LogFlusher with counts", () => {
  const settings: Settings = { ...DEFAULT_SETTINGS, outbox: { flushIntervalMs: 1000, flushBatchRows: 2 } };
  const chatKey = "qq:group:G1";
  const at = 1_700_000_000_000;
  const row = (id: string, ts: number) =>
    outboundRecord({ transport: "qq", chatKey, messageId: id, ts, text: id, botName: "b" });

  it("flushes when only counts changed, keeps them dirty through a failed batch, and sends the same counts again", async ({
    expect,
  }) => {
    await inFreshChatObject(async (storage) => {
      const written: FlushBatch[] = [];
      let failures = 1;
      const log: MessageLog = {
        flush: async (batch) => {
          if (failures-- > 0) throw new Error("D1_ERROR: simulated outage");
          written.push(batch);
        },
      };
      const counts = new LogCounts(storage.sql, () => true);
      const outbox = new Outbox(storage.sql);
      const flusher = new LogFlusher({ outbox, counts, log: () => log, logger: () => silentLogger });
      expect(flusher.nextAt(settings, Date.now())).toBeNull();
      const local = new LocalLog(storage.sql);
      for (const [id, ts] of [
        ["a", at],
        ["b", at + 1],
        ["c", at + HOUR],
      ] as const)
        local.append(row(id, ts));
      // Nothing in the outbox, yet the alarm comes for the counts.
      expect(outbox.size()).toBe(0);
      expect(flusher.nextAt(settings, Date.now())).not.toBeNull();
      await flusher.flush(settings);
      expect(flusher.failures).toBe(1);
      expect(counts.pending()).toBe(true);
      await flusher.flush(settings);
      const hour = at - (at % HOUR);
      expect(written.map((b) => b.counts)).toEqual([
        [
          {
            chatKey,
            hours: [
              { hour, messages: 2 },
              { hour: hour + HOUR, messages: 1 },
            ],
            lastAt: at + HOUR,
            whole: true,
          },
        ],
      ]);
      expect(counts.pending()).toBe(false);
      expect(flusher.nextAt(settings, Date.now())).toBeNull();
      // A later delete sends only its hour, with the count left.
      storage.sql.exec("DELETE FROM messages WHERE message_id = 'a'");
      await flusher.flush(settings);
      expect(written.at(-1)?.counts).toEqual([
        { chatKey, hours: [{ hour, messages: 1 }], lastAt: at + HOUR, whole: true },
      ]);
    });
  });

  it("sends nothing while the log is read from D1, and hands the counting back once it was sent", async ({
    expect,
  }) => {
    await inFreshChatObject(async (storage) => {
      const written: FlushBatch[] = [];
      let whole = false;
      const counts = new LogCounts(storage.sql, () => whole);
      const flusher = new LogFlusher({
        outbox: new Outbox(storage.sql),
        counts,
        log: () => ({ flush: async (b) => void written.push(b) }),
        logger: () => silentLogger,
      });
      new LocalLog(storage.sql).append(row("a", at));
      expect(counts.pending()).toBe(false);
      await flusher.flush(settings);
      expect(written).toEqual([]);
      whole = true;
      await flusher.flush(settings);
      expect(written.at(-1)?.counts?.map((c) => c.whole)).toEqual([true]);
      whole = false;
      expect(counts.pending()).toBe(true);
      await flusher.flush(settings);
      expect(written.at(-1)?.counts).toEqual([{ chatKey, hours: [], lastAt: null, whole: false }]);
      expect(counts.pending()).toBe(false);
      // Back in the object: every hour goes again, clean or not.
      whole = true;
      await flusher.flush(settings);
      expect(written.at(-1)?.counts?.[0]?.hours).toEqual([{ hour: at - (at % HOUR), messages: 1 }]);
    });
  });
});
