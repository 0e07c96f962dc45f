/**
 * Building blocks shared by the QQ event converters: payload parsing, chat and sender
 * addresses, timestamps, event ids and the common InboundEvent fields.
 */
import type { z } from "zod";
import { accountKey, chatAddress, chatKeyOf, type TargetType } from "../../domain/chat/chat-address";
import type {
  InboundEvent,
  InboundKind,
  InboundMessage,
  InboundSender,
  ReplyHandle,
} from "../../domain/inbound/inbound-event";
import { err, ok, type Result } from "../../domain/kernel/result";
import { describeIssues, type QqEnvelope } from "./qq-event.schema";

export type QqEventRejection = { readonly kind: "ignored" | "invalid"; readonly reason: string };
export type QqConversion = Result<InboundEvent, QqEventRejection>;

export type QqEventOptions = {
  /**
   * The bot's guild user id, when configured. Guild events do not name the bot, so without it
   * the bot is recognised heuristically (see `toInboundEvent`).
   */
  readonly botUserId?: string | null;
};

/** One dispatch being converted. */
export type QqEventContext = {
  readonly envelope: QqEnvelope;
  /** Envelope `t`. */
  readonly type: string;
  readonly receivedAt: number;
  readonly options: QqEventOptions;
};

const CHANNEL = "qq";

/** Validates `d` against the event type's schema; the reason names paths, never values. */
export function parsePayload<S extends z.ZodType>(
  schema: S,
  context: QqEventContext,
): Result<z.output<S>, QqEventRejection> {
  const parsed = schema.safeParse(context.envelope.d);
  if (parsed.success) return ok(parsed.data);
  return err({ kind: "invalid", reason: `${context.type}: ${describeIssues(parsed.error)}` });
}

export function qqChat(
  targetType: TargetType,
  targetId: string,
): Result<InboundEvent["chat"], QqEventRejection> {
  const address = chatAddress(CHANNEL, targetType, targetId);
  if (!address.ok)
    return err({ kind: "invalid", reason: `chat ${address.error.field} ${address.error.reason}` });
  return ok({ key: chatKeyOf(address.value), ...address.value });
}

export function qqSender(fields: {
  userId: string;
  displayName?: string | null;
  role?: string | null;
  unionId?: string | null;
  isBot?: boolean | null;
}): Result<InboundSender, QqEventRejection> {
  const account = accountKey(CHANNEL, fields.userId);
  if (!account.ok) return err({ kind: "invalid", reason: `sender ${account.error.reason}` });
  return ok({
    userId: fields.userId,
    account: account.value,
    displayName: fields.displayName || null,
    role: fields.role || null,
    unionId: fields.unionId || null,
    isBot: fields.isBot ?? false,
  });
}

/**
 * A passive-reply handle for a non-message event: `event_id` = the envelope id, the only id
 * the platform accepts there. None when the envelope had no id.
 */
export function eventIdReply(context: QqEventContext): ReplyHandle {
  return context.envelope.id ? { kind: "event_id", id: context.envelope.id } : { kind: "none" };
}

/** The common fields of every converted event. `stableId` stands in for a missing envelope id. */
export function qqEvent(
  context: QqEventContext,
  fields: {
    stableId: string;
    kind: InboundKind;
    chat: InboundEvent["chat"];
    sender: InboundSender | null;
    message?: InboundMessage | null;
    deletedMessageId?: string | null;
    reply: ReplyHandle;
  },
): InboundEvent {
  return {
    eventId: context.envelope.id || `${context.type}:${fields.stableId}`,
    transport: "qq",
    kind: fields.kind,
    wireType: context.type,
    chat: fields.chat,
    sender: fields.sender,
    message: fields.message ?? null,
    deletedMessageId: fields.deletedMessageId ?? null,
    reply: fields.reply,
    receivedAt: context.receivedAt,
    raw: context.envelope,
  };
}
