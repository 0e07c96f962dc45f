/**
 * A deployment from before the log moved into the chat objects, as the migration tests build it:
 * a chat's rows in D1 (written through the flush's own adapter, so D1's triggers ran), its object
 * reading D1, and both logs read back column by column for comparison.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { D1MessageLog } from "@src/adapters/d1/d1-message-log";
import { openDatabase } from "@src/adapters/d1/database";
import { outboundRecord } from "@src/domain/history/message-record";
import { chatIndexText } from "@src/domain/text/chat-search-tokens";
import { markLogHome } from "@src/durable-objects/chat-log-home";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { LocalLog } from "@src/durable-objects/local-log";

type Message = ReturnType<typeof outboundRecord>;

/** D1 as a deployment that has moved no chat yet: no log rows, no migration records, no deletions. */
export async function freshDeployment(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM messages"),
    env.DB.prepare("DELETE FROM log_migration"),
    env.DB.prepare("DELETE FROM log_d1_deleted"),
  ]);
}

/** Message `i` of a chat: every third said by a member, the rest by the bot, a minute apart. */
export function chatMessage(chatKey: string, i: number, text = `第${i}条消息 话题${i % 7}`): Message {
  const ts = 1_700_000_000_000 + i * 60_000;
  const base = outboundRecord({ transport: "qq", chatKey, messageId: `m${i}`, ts, text, botName: "Akasha" });
  if (i % 3 !== 0) return base;
  return {
    ...base,
    direction: "in",
    userId: "u1",
    accountKey: "qq:user:U1",
    nick: "小明",
    tokens: chatIndexText(chatKey, `小明: ${text}`),
  };
}

/** Messages 1 to `n` of a chat. */
export const chatMessages = (chatKey: string, n: number): Message[] =>
  Array.from({ length: n }, (_, i) => chatMessage(chatKey, i + 1));

/** Writes `messages` to D1 as the flush does, then applies `recalled` marks. */
export async function seedD1(messages: readonly Message[], recalled: readonly Message[] = []): Promise<void> {
  const log = new D1MessageLog(openDatabase(env.DB));
  for (let i = 0; i < messages.length; i += 400)
    await log.flush({
      messages: messages.slice(i, i + 400),
      recalls: [],
      chats: [],
      usage: [],
      audit: [],
    });
  if (recalled.length > 0)
    await log.flush({
      messages: [],
      recalls: recalled.map((m) => ({ transport: m.transport, chatKey: m.chatKey, messageId: m.messageId })),
      chats: [],
      usage: [],
      audit: [],
    });
}

const inObject = <T>(chatKey: string, fn: (storage: DurableObjectStorage) => T) =>
  runInDurableObject(env.CHAT_SESSION.getByName(chatKey), (_o: ChatSession, state) => fn(state.storage));

/** The chat's object as one created before the move: its log is read from D1. `written`: rows it logged since. */
export function objectFromBeforeTheMove(chatKey: string, written: readonly Message[] = []): Promise<void> {
  return inObject(chatKey, (storage) => {
    markLogHome(storage.sql, "d1");
    const log = new LocalLog(storage.sql);
    for (const m of written) log.append(m);
  });
}

/** The chat's object as one first seen after the move: its own log, with `written` in it. */
export function objectAfterTheMove(chatKey: string, written: readonly Message[]): Promise<void> {
  return inObject(chatKey, (storage) => {
    const log = new LocalLog(storage.sql);
    for (const m of written) log.append(m);
  });
}

const LOG_COLUMNS = `transport, chat_key, message_id, ts, user_id, account_key, nick, text, tokens, raw_json, direction,
  recalled, reply_to, private_marked`;

/** Every row of the chat, every column but seq, in reading order. */
export async function d1Log(chatKey: string): Promise<Record<string, unknown>[]> {
  const { results } = await env.DB.prepare(
    `SELECT ${LOG_COLUMNS} FROM messages WHERE chat_key = ? ORDER BY ts, seq`,
  )
    .bind(chatKey)
    .all<Record<string, unknown>>();
  return results;
}

export function objectLog(chatKey: string): Promise<Record<string, unknown>[]> {
  return inObject(chatKey, (storage) =>
    storage.sql.exec(`SELECT ${LOG_COLUMNS} FROM messages ORDER BY ts, seq`).toArray(),
  );
}

/** The chat's conversation sessions and turn windows, keyed by message id (seqs differ). */
export async function d1Trees(chatKey: string) {
  const sessions = await env.DB.prepare(
    `SELECT first_ts, last_ts, messages FROM conversation_sessions WHERE chat_key = ? ORDER BY first_ts`,
  )
    .bind(chatKey)
    .all();
  const windows = await env.DB.prepare(
    `SELECT m.message_id, w.tokens FROM message_windows w JOIN messages m ON m.seq = w.seq
     WHERE m.chat_key = ? ORDER BY m.ts, m.seq`,
  )
    .bind(chatKey)
    .all();
  return { sessions: sessions.results, windows: windows.results };
}

export function objectTrees(chatKey: string) {
  return inObject(chatKey, (storage) => ({
    sessions: storage.sql
      .exec("SELECT first_ts, last_ts, messages FROM conversation_sessions ORDER BY first_ts")
      .toArray(),
    windows: storage.sql
      .exec(
        "SELECT m.message_id, w.tokens FROM message_windows w JOIN messages m ON m.seq = w.seq ORDER BY m.ts, m.seq",
      )
      .toArray(),
  }));
}

/** A fresh key for a QQ group chat. */
export const groupKey = () =>
  `qq:group:G${crypto.randomUUID().replaceAll("-", "").slice(0, 16).toUpperCase()}`;

/** A new group chat with `n` messages in D1 and its object from before the move (reading D1). */
export async function chatBeforeTheMove(n: number): Promise<string> {
  const chat = groupKey();
  await seedD1(chatMessages(chat, n));
  await objectFromBeforeTheMove(chat);
  return chat;
}
