/** Builders for InboundEvents in tests. */
import type { AccountKey, ChatKey, TargetType } from "../../src/domain/chat/chat-address";
import type { InboundEvent } from "../../src/domain/inbound/inbound-event";

export function messageEvent(input: {
  chat: string;
  text: string;
  sender?: string;
  name?: string;
  id?: string;
  eventId?: string;
  ts?: number;
  addressedToBot?: boolean;
  transport?: "qq" | "onebot";
}): InboundEvent {
  const [channel = "qq", targetType = "group", ...rest] = input.chat.split(":");
  const targetId = rest.join(":");
  const id = input.id ?? crypto.randomUUID();
  const sender = input.sender ?? "U1";
  return {
    eventId: input.eventId ?? `EVT:${id}`,
    transport: input.transport ?? (channel === "onebot" ? "onebot" : "qq"),
    kind: "message",
    wireType: "TEST",
    chat: { key: input.chat as ChatKey, channel, targetType: targetType as TargetType, targetId },
    sender: {
      userId: sender,
      account: `${channel}:user:${sender}` as AccountKey,
      displayName: input.name ?? sender,
      role: null,
      unionId: null,
      isBot: false,
    },
    message: {
      id,
      text: input.text,
      ts: input.ts ?? Date.now(),
      addressedToBot: input.addressedToBot ?? true,
      attachments: [],
      quotedMessageId: null,
    },
    deletedMessageId: null,
    reply: { kind: "msg_id", id },
    receivedAt: Date.now(),
    raw: { test: true },
  };
}
