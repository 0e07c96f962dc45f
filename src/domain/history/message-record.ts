/**
 * The message-log row (docs/storage.md#messages) and how inbound events and sent replies become rows.
 * Rows are buffered in the chat object and flushed to D1 in batches; the unique key
 * (transport, chat_key, message_id, ts) makes redelivery and retried flushes idempotent.
 */
import type { InboundEvent } from "../inbound/inbound-event";
import { maskJson } from "../inbound/mask-inbound-event";
import { maskSensitiveData } from "../privacy/credentials";
import { chatIndexText } from "../text/chat-search-tokens";
import { type PrivacyMark, privacyMarkOf } from "./privacy-mark";

export type MessageRecord = {
  readonly transport: string;
  readonly chatKey: string;
  readonly messageId: string;
  readonly ts: number;
  readonly userId: string | null;
  readonly accountKey: string | null;
  readonly nick: string | null;
  readonly text: string;
  /** Space-joined, chat-prefixed FTS tokens of `text` (see chat-search-tokens.ts). */
  readonly tokens: string;
  readonly rawJson: string | null;
  readonly direction: "in" | "out";
  /** The platform id of the message this one quotes (reply links for the daily summary). */
  readonly replyTo?: string | null;
  /**
   * Whether the speaker asked that it stay in this chat (privacy-mark.ts); absent = 0. Other
   * chats' reads never see a marked message.
   */
  readonly privateMarked?: PrivacyMark;
};

/**
 * What a message is indexed as: its sender's display name, then its text, so that a question
 * naming a person ("小明说的烧烤", "What did Caroline research?") finds what they said; the
 * shown and cited text stays the message alone.
 */
export function senderText(nick: string | null, text: string): string {
  return nick ? `${nick}: ${text}` : text;
}

/** raw_json is kept for audit and re-parsing; oversized payloads are cut, not dropped. */
const MAX_RAW_JSON = 16 * 1024;

/**
 * Log rows never hold a credential: the text and raw_json are masked here as well as where
 * the event arrived (masking is idempotent), so no path into the log can skip it.
 */
export function inboundRecord(event: InboundEvent): MessageRecord | null {
  if (event.kind !== "message" || !event.message) return null;
  const raw = JSON.stringify(maskJson(event.raw ?? null));
  const text = maskSensitiveData(event.message.text);
  return {
    transport: event.transport,
    chatKey: event.chat.key,
    messageId: event.message.id,
    ts: event.message.ts,
    userId: event.sender?.userId ?? null,
    accountKey: event.sender?.account ?? null,
    nick: event.sender?.displayName ?? null,
    text,
    tokens: chatIndexText(event.chat.key, senderText(event.sender?.displayName ?? null, text)),
    rawJson: raw.length > MAX_RAW_JSON ? raw.slice(0, MAX_RAW_JSON) : raw,
    direction: "in",
    replyTo: event.message.quotedMessageId ?? null,
    privateMarked: privacyMarkOf(text),
  };
}

export function outboundRecord(input: {
  transport: string;
  chatKey: string;
  messageId: string;
  ts: number;
  text: string;
  botName: string;
  /** Its turn held words that must stay in this chat (src/domain/agent/turn-privacy.ts). */
  marked?: boolean;
}): MessageRecord {
  const text = maskSensitiveData(input.text);
  return {
    transport: input.transport,
    chatKey: input.chatKey,
    messageId: input.messageId,
    ts: input.ts,
    userId: null,
    accountKey: null,
    nick: input.botName,
    text,
    tokens: chatIndexText(input.chatKey, senderText(input.botName, text)),
    rawJson: null,
    direction: "out",
    // Marked like what it may repeat: other chats' reads and the daily summary leave it out.
    ...(input.marked === true ? { privateMarked: 1 as const } : {}),
  };
}

/**
 * A record as the log stores it, whoever built it: masked again (idempotent) and its tokens
 * rebuilt when masking changed its text, so no writer of the log can store a credential.
 */
export function maskedRecord(r: MessageRecord): MessageRecord {
  const text = maskSensitiveData(r.text);
  const rawJson = r.rawJson === null ? null : maskSensitiveData(r.rawJson);
  // The sender's name is indexed with the text: a name that holds a secret is masked too.
  const nick = r.nick === null ? null : maskSensitiveData(r.nick);
  if (text === r.text && rawJson === r.rawJson && nick === r.nick) return r;
  return { ...r, text, rawJson, nick, tokens: chatIndexText(r.chatKey, senderText(nick, text)) };
}

/**
 * A logged record with `hide` applied to its text and raw payload, its tokens rebuilt to match:
 * a value its sender named a secret after it was logged
 * (src/durable-objects/named-after-logging.ts).
 */
export function rewrittenRecord(
  r: MessageRecord,
  hide: (text: string) => string,
  hideJson: (json: string) => string,
): MessageRecord {
  const text = hide(r.text);
  const rawJson = r.rawJson === null ? null : hideJson(r.rawJson);
  if (text === r.text && rawJson === r.rawJson) return r;
  return { ...r, text, rawJson, tokens: chatIndexText(r.chatKey, senderText(r.nick, text)) };
}
