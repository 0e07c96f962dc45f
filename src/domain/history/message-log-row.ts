import type { MessageRecord } from "./message-record";
import type { PrivacyMark } from "./privacy-mark";

/**
 * One row of the message log as its SQL stores it (docs/storage.md#messages), every column but
 * `seq`: each log numbers its own rows. D1's log and each chat object's log have the same
 * columns (src/durable-objects/chat-log-schema.ts), so the owner's migration reads a chat's rows
 * from D1 in this shape and its object writes them as they are, column for column.
 */
export type MessageLogRow = {
  readonly transport: string;
  readonly chat_key: string;
  readonly message_id: string;
  readonly ts: number;
  readonly user_id: string | null;
  readonly account_key: string | null;
  readonly nick: string | null;
  readonly text: string;
  readonly tokens: string;
  readonly raw_json: string | null;
  readonly direction: "in" | "out";
  readonly recalled: number;
  readonly reply_to: string | null;
  readonly private_marked: number;
};

/** The record a log row holds, as the log's writers take it. */
export function recordOfLogRow(r: MessageLogRow): MessageRecord {
  return {
    transport: r.transport,
    chatKey: r.chat_key,
    messageId: r.message_id,
    ts: r.ts,
    userId: r.user_id,
    accountKey: r.account_key,
    nick: r.nick,
    text: r.text,
    tokens: r.tokens,
    rawJson: r.raw_json,
    direction: r.direction,
    replyTo: r.reply_to,
    privateMarked: r.private_marked as PrivacyMark,
  };
}
