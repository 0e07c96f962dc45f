// Conversation trees over the live log (migrations/0180_conversation_sessions.sql): the log's
// triggers cut each chat into sessions at 30 minutes of silence and keep every message's turn
// window (the turn before, the message, the turn after, inside its session); history search
// matches the windows. Against real local D1: segmentation, incremental maintenance through
// flushes in any order, recall and retention, the resumable backfill of older messages, the
// two-stage recall a flat log misses, and the privacy rules (other chats, store off).
import { env } from "cloudflare:workers";
import { D1ConversationBackfill, runConversationBackfill } from "@src/adapters/d1/d1-conversation-backfill";
import { applyRetention } from "@src/adapters/d1/retention";
import { historySearch } from "@src/composition/common/history-search";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { CONVERSATION_GAP_MS, segmentSessions } from "@src/domain/history/conversation-sessions";
import { chatMatchExpression } from "@src/domain/text/chat-search-tokens";
import { describe, it } from "vitest";
import { seedLines } from "../../support/message-lines";
import { registerChat } from "../../support/sessions";

const T0 = Date.parse("2026-11-20T10:00:00+08:00");
const MIN = 60_000;

type Line = { readonly id: string; readonly minute: number; readonly text: string; readonly nick?: string };

const newChat = () => `qq:group:${crypto.randomUUID()}`;

/** The chat's lines and recalls in D1's log, through the flush's own writer. */
const write = (chat: string, lines: readonly Line[], recalls: readonly string[] = []) =>
  seedLines(
    lines.map((l) => ({ ...l, chat })),
    recalls.map((id) => ({ chat, id })),
    T0,
  );

async function sessionsOf(chat: string) {
  const { results } = await env.DB.prepare(
    `SELECT first_seq AS firstSeq, last_seq AS lastSeq, first_ts AS firstTs, last_ts AS lastTs, messages
     FROM conversation_sessions WHERE chat_key = ?1 ORDER BY first_ts`,
  )
    .bind(chat)
    .all();
  return results;
}

/** The sessions segmentSessions makes of the chat's messages as they are in the log. */
async function expectedSessions(chat: string) {
  const { results } = await env.DB.prepare(
    "SELECT seq, ts FROM messages WHERE chat_key = ?1 ORDER BY ts, seq",
  )
    .bind(chat)
    .all<{ seq: number; ts: number }>();
  return segmentSessions(results);
}

/** Each non-recalled message's window as stored, next to the window the log's view computes. */
async function windowsOf(chat: string) {
  const { results } = await env.DB.prepare(
    `SELECT m.seq, w.tokens AS stored, v.tokens AS computed FROM messages m
     LEFT JOIN message_windows w ON w.seq = m.seq LEFT JOIN message_window_text v ON v.seq = m.seq
     WHERE m.chat_key = ?1 ORDER BY m.ts, m.seq`,
  )
    .bind(chat)
    .all<{ seq: number; stored: string | null; computed: string | null }>();
  return results;
}

const texts = (hits: readonly { text: string; via?: string }[], via: "hit" | "context") =>
  hits.filter((h) => h.via === via).map((h) => h.text);

describe("conversation sessions of the live log", () => {
  it("cuts a chat at more than 30 minutes of silence, as segmentSessions does", async ({ expect }) => {
    const chat = newChat();
    await write(chat, [
      { id: "1", minute: 0, text: "早" },
      { id: "2", minute: 10, text: "在吗" },
      { id: "3", minute: 40, text: "在" },
      { id: "4", minute: 71, text: "下午开会" },
      { id: "5", minute: 72, text: "好" },
      { id: "6", minute: 300, text: "晚上吃什么" },
    ]);
    const sessions = await sessionsOf(chat);
    expect(sessions.map((s) => s.messages)).toEqual([3, 2, 1]);
    expect(sessions).toEqual(await expectedSessions(chat));
    expect(CONVERSATION_GAP_MS).toBe(30 * MIN);
  });

  it("keeps the same sessions when history arrives out of order, a filled gap merging two", async ({
    expect,
  }) => {
    const chat = newChat();
    // Newest first, as a history backfill pages backwards; minute 25 joins 0 and 50 into one.
    await write(chat, [{ id: "e", minute: 200, text: "五" }]);
    await write(chat, [{ id: "c", minute: 50, text: "三" }]);
    await write(chat, [{ id: "a", minute: 0, text: "一" }]);
    expect((await sessionsOf(chat)).length).toBe(3);
    await write(chat, [
      { id: "b", minute: 25, text: "二" },
      { id: "d", minute: 60, text: "四" },
    ]);
    const sessions = await sessionsOf(chat);
    expect(sessions.map((s) => s.messages)).toEqual([4, 1]);
    expect(sessions).toEqual(await expectedSessions(chat));
  });

  it("windows each message with its neighbours inside its session, rebuilt on recall and retention", async ({
    expect,
  }) => {
    const chat = newChat();
    await registerChat(chat, T0);
    await write(chat, [
      { id: "1", minute: 0, text: "周末你去哪儿玩了" },
      { id: "2", minute: 1, text: "去了杭州西湖" },
      { id: "3", minute: 2, text: "风景怎么样" },
      { id: "4", minute: 90, text: "下一场聊天" },
    ]);
    const windows = await windowsOf(chat);
    // Every stored window is the one the log's view computes, and each one exists.
    expect(windows.every((w) => w.stored !== null && w.stored === w.computed)).toBe(true);
    const has = async (word: string) =>
      (await historySearch(env).search({ chatKey: chat, reader: chat, text: word, limit: 10 }))
        .filter((h) => h.via === "hit")
        .map((h) => h.text);
    // 西湖 is said once; the turns on either side match it; the next session does not.
    expect((await has("西湖")).sort()).toEqual(["周末你去哪儿玩了", "去了杭州西湖", "风景怎么样"].sort());
    // Recalling the middle message takes its words out of every window.
    await write(chat, [], ["2"]);
    expect(await has("西湖")).toEqual([]);
    const after = await windowsOf(chat);
    expect(after.every((w) => w.stored === w.computed)).toBe(true);
    expect(after.find((w) => w.seq === windows[1]?.seq)?.stored).toBeNull();
    // The question and "风景怎么样" are each other's neighbours now.
    expect((await has("风景")).sort()).toEqual(["周末你去哪儿玩了", "风景怎么样"].sort());
    // Retention deletes the expired first message (by chat: other chats' rows stay out of it):
    // no window keeps its words.
    await env.DB.prepare("UPDATE chats SET retention_days = 1 WHERE chat_key = ?1").bind(chat).run();
    const retention = await applyRetention(env.DB, DEFAULT_SETTINGS, T0 + 86_400_000 + MIN / 2, 1);
    expect(retention.deleted).toBeGreaterThanOrEqual(1);
    expect(await has("周末")).toEqual([]);
    expect((await windowsOf(chat)).every((w) => w.stored === w.computed)).toBe(true);
    expect(await sessionsOf(chat)).toEqual(await expectedSessions(chat));
  });
});

describe("history search over conversation trees", () => {
  it("finds the answer to a question as a match, where the flat log has it only as context", async ({
    expect,
  }) => {
    const chat = newChat();
    await write(chat, [
      { id: "0", minute: 0, text: "早上好", nick: "小红" },
      { id: "1", minute: 1, text: "周末你去哪儿玩了？", nick: "小红" },
      { id: "2", minute: 2, text: "杭州！太美了", nick: "小明" },
      { id: "3", minute: 3, text: "下次一起", nick: "小红" },
      { id: "4", minute: 4, text: "好呀", nick: "小明" },
      { id: "5", minute: 5, text: "拜拜", nick: "小红" },
      // A later session: never a window neighbour nor a context turn of the one above.
      { id: "6", minute: 120, text: "今天去哪儿吃饭", nick: "小红" },
      { id: "7", minute: 121, text: "食堂", nick: "小明" },
    ]);
    const trees = await historySearch(env).search({
      chatKey: chat,
      reader: chat,
      text: "周末去哪儿玩",
      limit: 3,
    });
    expect(texts(trees, "hit")).toContain("杭州！太美了");
    const flat = await historySearch(env, { flat: true }).search({
      chatKey: chat,
      reader: chat,
      text: "周末去哪儿玩",
      limit: 3,
    });
    expect(texts(flat, "hit")).not.toContain("杭州！太美了");
    // The later session's turns match each other's words; nothing of the earlier session comes
    // along, neither as a match nor as context.
    const later = await historySearch(env).search({ chatKey: chat, reader: chat, text: "吃饭", limit: 5 });
    expect(later.map((h) => h.text).sort()).toEqual(["今天去哪儿吃饭", "食堂"].sort());
  });

  it("never matches or shows another chat's messages, however close in time", async ({ expect }) => {
    const [a, b] = [newChat(), newChat()];
    await write(a, [{ id: "a1", minute: 0, text: "我们聊天" }]);
    await write(b, [{ id: "b1", minute: 1, text: "隔壁群的秘密计划" }]);
    await write(a, [{ id: "a2", minute: 2, text: "继续聊天" }]);
    expect(await historySearch(env).search({ chatKey: a, reader: a, text: "秘密计划", limit: 10 })).toEqual(
      [],
    );
    const across = await historySearch(env).searchAcross({
      reader: "qq:group:reader",
      chatKeys: [a],
      text: "秘密计划 聊天",
      limit: 10,
    });
    expect(across.length).toBeGreaterThan(0);
    expect(across.every((h) => h.chatKey === a)).toBe(true);
    const windows = await windowsOf(a);
    expect(windows.every((w) => w.stored === w.computed)).toBe(true);
  });

  it("a chat with storage off has no sessions and no windows", async ({ expect }) => {
    const chat = newChat();
    await env.DB.prepare(
      `INSERT INTO chat_sessions (chat_key, session_id, cluster_id, store_enabled, created_at, updated_at)
       VALUES (?1, ?2, ?2, 0, 0, 0)`,
    )
      .bind(chat, `s_${crypto.randomUUID().slice(0, 10)}`)
      .run();
    await write(chat, [
      { id: "1", minute: 0, text: "不该存的话" },
      { id: "2", minute: 1, text: "也不该存" },
    ]);
    expect(await sessionsOf(chat)).toEqual([]);
    const windows = await env.DB.prepare(
      "SELECT count(*) AS n FROM message_windows_fts WHERE message_windows_fts MATCH ?1",
    )
      .bind(chatMatchExpression(chat, "不该存"))
      .first<{ n: number }>();
    expect(windows?.n).toBe(0);
    expect(
      await historySearch(env).search({ chatKey: chat, reader: chat, text: "不该存", limit: 5 }),
    ).toEqual([]);
  });
});

describe("the backfill of messages logged before the trees", () => {
  it("segments and windows them in bounded, resumable steps, merging with live sessions", async ({
    expect,
  }) => {
    const [a, b] = [newChat(), newChat()];
    await write(a, [
      { id: "1", minute: 0, text: "旧的一" },
      { id: "2", minute: 5, text: "旧的二" },
      { id: "3", minute: 100, text: "旧的三" },
    ]);
    await write(b, [{ id: "1", minute: 0, text: "另一个群的旧消息" }]);
    // The log as it was before migration 0180: no sessions, no windows, the backfill pending.
    await env.DB.batch([
      env.DB.prepare("DELETE FROM message_windows"),
      env.DB.prepare("DELETE FROM conversation_sessions"),
      env.DB.prepare(
        `UPDATE conversation_backfill SET watermark = (SELECT max(seq) FROM messages),
           chat_key = NULL, ts = NULL, seq = NULL, done = 0`,
      ),
    ]);
    // Not yet windowed, still found by its own words.
    const before = await historySearch(env).search({ chatKey: a, reader: a, text: "旧的三", limit: 5 });
    expect(texts(before, "hit")).toContain("旧的三");
    // A live message within the gap of the last old one: the trigger opens a session for it.
    await write(a, [{ id: "4", minute: 110, text: "新的四" }]);
    expect((await sessionsOf(a)).map((s) => s.messages)).toEqual([1]);

    const backfill = new D1ConversationBackfill(env.DB);
    let steps = 0;
    for (;;) {
      const r = await backfill.step(2);
      steps++;
      expect(r.messages).toBeLessThanOrEqual(2);
      if (r.done) break;
    }
    expect(steps).toBeGreaterThan(1);
    for (const chat of [a, b]) {
      expect(await sessionsOf(chat)).toEqual(await expectedSessions(chat));
      expect((await windowsOf(chat)).every((w) => w.stored !== null && w.stored === w.computed)).toBe(true);
    }
    expect((await sessionsOf(a)).map((s) => s.messages)).toEqual([2, 2]);
    // Done is done: another run reads and writes nothing.
    const again = await runConversationBackfill(backfill, 5);
    expect(again).toEqual({ messages: 0, sessions: 0, steps: 1, done: true });
    expect(await sessionsOf(a)).toEqual(await expectedSessions(a));
  });
});
