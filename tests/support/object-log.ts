/** Reads a chat object's own message log (its SQLite), as the tests see it. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { d1MessageLog } from "@src/composition/common/message-log-writer";
import { chatKeyOf, parseChatKey } from "@src/domain/chat/chat-address";
import type { MessageRecord } from "@src/domain/history/message-record";
import type { ChatSession } from "@src/durable-objects/chat-session";

export type ObjectLogRow = {
  seq: number;
  message_id: string;
  direction: string;
  text: string;
  nick: string | null;
  recalled: number;
  private_marked: number;
};

export function objectLogRows(chatKey: string): Promise<ObjectLogRow[]> {
  return runInDurableObject(env.CHAT_SESSION.getByName(chatKey), (_o: ChatSession, state) =>
    state.storage.sql
      .exec<ObjectLogRow>(
        "SELECT seq, message_id, direction, text, nick, recalled, private_marked FROM messages ORDER BY ts, seq",
      )
      .toArray(),
  );
}

/** The rowids the object's turn-window index matches for an FTS expression. */
export function objectWindowMatches(chatKey: string, expression: string): Promise<number[]> {
  return runInDurableObject(env.CHAT_SESSION.getByName(chatKey), (_o: ChatSession, state) =>
    state.storage.sql
      .exec<{ rowid: number }>(
        "SELECT rowid FROM message_windows_fts WHERE message_windows_fts MATCH ?",
        expression,
      )
      .toArray()
      .map((r) => r.rowid),
  );
}

/**
 * Writes records into their chats' own logs through the objects' `appendLog`, as every writer
 * from outside a chat does; grouped by chat, in the given order.
 */
export async function logToObjects(records: readonly MessageRecord[]): Promise<void> {
  const byChat = new Map<string, MessageRecord[]>();
  for (const r of records) byChat.set(r.chatKey, [...(byChat.get(r.chatKey) ?? []), r]);
  for (const [chat, rows] of byChat) {
    const address = parseChatKey(chat);
    if (!address.ok) throw new Error(`not a chat key: ${chat}`);
    const key = chatKeyOf(address.value);
    await env.CHAT_SESSION.getByName(key).appendLog(key, rows);
  }
}

/**
 * The log as the chat objects write it while it moves: each chat's own log, and D1 (which
 * still receives every row), through the production writers.
 */
export async function writeLog(records: readonly MessageRecord[]): Promise<void> {
  await logToObjects(records);
  for (let i = 0; i < records.length; i += 50)
    await d1MessageLog(env).flush({
      messages: records.slice(i, i + 50),
      recalls: [],
      chats: [],
      usage: [],
      audit: [],
    });
}

/** Rows of a read of a chat's own log (its object's SQLite), for tests that look at its columns. */
export function logQuery<T extends Record<string, SqlStorageValue>>(
  chatKey: string,
  sql: string,
  ...binds: SqlStorageValue[]
): Promise<T[]> {
  return runInDurableObject(env.CHAT_SESSION.getByName(chatKey), (_o: ChatSession, state) =>
    state.storage.sql.exec<T>(sql, ...binds).toArray(),
  );
}
