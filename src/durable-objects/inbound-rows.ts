/**
 * The rows an accepted inbound event adds to the chat object's outbox besides its inbox row —
 * the registry touch, the message-log row (stored chats only), who was seen where, a recall
 * mark — and the chat's own address, recorded from its first event.
 */
import { inboundRecord } from "../domain/history/message-record";
import { observationOf } from "../domain/identity/account-observation";
import type { InboundEvent } from "../domain/inbound/inbound-event";
import type { ChatInfo } from "./dream-runner";
import type { OutboxItem } from "./outbox";

export function chatInfo(event: InboundEvent): ChatInfo {
  return {
    key: event.chat.key,
    channel: event.chat.channel,
    targetType: event.chat.targetType,
    targetId: event.chat.targetId,
  };
}

/** The rows an accepted event adds to the outbox: registry, message log, identity, recall. */
export function inboundRows(
  event: InboundEvent,
  stored: boolean,
  leftOut: boolean,
  now: number,
): OutboxItem[] {
  const items: OutboxItem[] = [{ kind: "chat", body: chatTouch(event, stored, now) }];
  const record = stored && !leftOut ? inboundRecord(event) : null;
  if (record) items.push({ kind: "message", body: record });
  // Who was seen where (identity); flushed with the rest, so it costs the ACK one row.
  const observation = leftOut ? null : observationOf(event, now);
  if (observation) items.push({ kind: "observation", body: observation });
  if (stored && event.kind === "message_deleted" && event.deletedMessageId) {
    const recall = { transport: event.transport, chatKey: event.chat.key, messageId: event.deletedMessageId };
    items.push({ kind: "recall", body: recall });
  }
  return items;
}

function chatTouch(event: InboundEvent, followed: boolean, now: number) {
  return {
    chatKey: event.chat.key,
    channel: event.chat.channel,
    targetType: event.chat.targetType,
    targetId: event.chat.targetId,
    seenAt: now,
    followed,
    ...(event.chatTitle ? { title: event.chatTitle } : {}),
    ...(event.kind === "bot_added" ? { botPresent: true } : {}),
    ...(event.kind === "bot_removed" ? { botPresent: false } : {}),
    ...(event.kind === "push_enabled" ? { pushEnabled: true } : {}),
    ...(event.kind === "push_disabled" ? { pushEnabled: false } : {}),
  };
}
