/**
 * Log rows written straight into a store, as they were logged before a detector read their
 * wording (rows of `loggedBefore`): the writers of today would mask them. The tests of the log
 * sweep (docs/decisions/0990-logs-kept-before-a-detector-read-them.md) read them back.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { MessageRecord } from "@src/domain/history/message-record";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { LocalLog } from "@src/durable-objects/local-log";

/** Rows written straight into the chat object's own log. */
export const logInObject = (chatKey: string, rows: readonly MessageRecord[]) =>
  runInDurableObject(env.CHAT_SESSION.getByName(chatKey), (_o: ChatSession, state) => {
    const log = new LocalLog(state.storage.sql);
    for (const r of rows) log.append(r);
  });

/** Rows written straight into D1's log. */
export async function logInD1(rows: readonly MessageRecord[]) {
  for (const r of rows)
    await env.DB.prepare(
      `INSERT INTO messages (transport, chat_key, message_id, ts, user_id, account_key, nick, text, tokens, raw_json, direction)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
      .bind(
        r.transport,
        r.chatKey,
        r.messageId,
        r.ts,
        r.userId,
        r.accountKey,
        r.nick,
        r.text,
        r.tokens,
        r.rawJson,
        r.direction,
      )
      .run();
}
