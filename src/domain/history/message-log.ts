/**
 * The message-log port: where a chat object's buffered rows go — message-log rows, recall
 * marks, chat registry touches, usage, audit rows and account observations. Every row
 * reaches it through the chat object's outbox: inbound messages, every reply and
 * `send_message`'s relayed messages alike.
 */
import type { AccountObservation } from "../identity/identity-directory";
import type { UsageRecord } from "../model/chat-model";
import type { MessageRecord } from "./message-record";

export type ChatTouch = {
  readonly chatKey: string;
  readonly channel: string;
  readonly targetType: string;
  readonly targetId: string;
  readonly seenAt: number;
  readonly followed: boolean;
  readonly botPresent?: boolean;
  readonly pushEnabled?: boolean;
  /** The platform's name for the chat, when the event gave one; absent = keep the stored title. */
  readonly title?: string;
};

/**
 * A logged message's words rewritten after it was logged, its tokens with them: a value its
 * sender named a secret afterwards (src/durable-objects/named-after-logging.ts).
 */
export type MessageRewrite = Pick<
  MessageRecord,
  "transport" | "chatKey" | "messageId" | "ts" | "text" | "tokens" | "rawJson"
>;

export type RecallMark = { readonly transport: string; readonly chatKey: string; readonly messageId: string };

export type AuditRecord = {
  readonly dedupeKey: string;
  readonly at: number;
  readonly actor: string | null;
  readonly action: string;
  readonly chatKey: string | null;
  readonly target: string | null;
  readonly detail: Record<string, unknown>;
};

/**
 * One chat's message counts per hour as its object's log holds them now (absolute, so a batch
 * written twice leaves the same counts), and the time of its last message. `whole` false: the
 * chat's log is read from D1 again, so D1 counts its rows itself from now on (migration 0450).
 */
export type ChatLogCounts = {
  readonly chatKey: string;
  readonly hours: readonly { readonly hour: number; readonly messages: number }[];
  readonly lastAt: number | null;
  readonly whole: boolean;
};

export type FlushBatch = {
  readonly messages: readonly MessageRecord[];
  readonly recalls: readonly RecallMark[];
  readonly chats: readonly ChatTouch[];
  readonly usage: readonly (UsageRecord & { dedupeKey: string })[];
  readonly audit: readonly AuditRecord[];
  /** Where senders were seen (identity); optional so that callers without any can omit it. */
  readonly observations?: readonly AccountObservation[];
  /** Changed hourly counts of the chat's log (chat-log-counts-schema.ts); optional like observations. */
  readonly counts?: readonly ChatLogCounts[];
  /** Logged messages whose words changed since; optional like observations. */
  readonly rewrites?: readonly MessageRewrite[];
};

export interface MessageLog {
  /**
   * Writes the whole batch or nothing, and throws on failure so the caller keeps the rows.
   * Idempotent: writing a batch again after an unacknowledged success changes nothing.
   */
  flush(batch: FlushBatch): Promise<void>;
}
