/**
 * OneBot v11 reported events → InboundEvent. Messages, recalls, the bot joining or leaving a
 * group and new friends are events; heartbeats, requests and everything else are ignored.
 */
import { accountKey, chatAddress, chatKeyOf, type TargetType } from "../../domain/chat/chat-address";
import type { InboundEvent, InboundKind, InboundSender } from "../../domain/inbound/inbound-event";
import { err, ok, type Result } from "../../domain/kernel/result";
import {
  MESSAGE_TYPES,
  MessageEventSchema,
  NOTICE_TYPES,
  NoticeEventSchema,
  OneBotEnvelopeSchema,
  type OneBotMessageEvent,
  type OneBotNoticeEvent,
} from "./onebot-event.schema";
import { readOneBotMessage } from "./onebot-message";

const CHANNEL = "onebot";

/** `ignored`: a well-formed event Akasha does not act on. `invalid`: the payload is malformed. */
export type OneBotEventRejection = { readonly kind: "ignored" | "invalid"; readonly reason: string };

type Conversion = Result<InboundEvent, OneBotEventRejection>;
type ZodIssues = {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
};

/**
 * Normalizes one reported event (parsed JSON). Ids become strings; `eventId` is derived from
 * the payload alone (`onebot:<self_id>:msg:<message_id>` for messages), so a redelivered event
 * dedupes. Reasons never contain message text.
 */
export function toInboundEvent(payload: unknown, receivedAtMs: number): Conversion {
  const envelope = OneBotEnvelopeSchema.safeParse(payload);
  if (!envelope.success) return invalid(envelope.error);
  switch (envelope.data.post_type) {
    case "message": {
      const type = detail(payload, "message_type");
      if (!MESSAGE_TYPES.has(type)) return ignored(`message_type '${type}' is not handled`);
      const event = MessageEventSchema.safeParse(payload);
      return event.success ? fromMessage(event.data, payload, receivedAtMs) : invalid(event.error);
    }
    case "notice": {
      const type = detail(payload, "notice_type");
      if (!NOTICE_TYPES.has(type)) return ignored(`notice_type '${type}' is not handled`);
      const event = NoticeEventSchema.safeParse(payload);
      return event.success ? fromNotice(event.data, payload, receivedAtMs) : invalid(event.error);
    }
    case "message_sent":
      return ignored("message_sent is the bot's own message");
    case "meta_event":
      return ignored(`meta_event '${detail(payload, "meta_event_type")}' is not a chat event`);
    case "request":
      return ignored(`request '${detail(payload, "request_type")}' is not handled`);
    default:
      return ignored(`post_type '${clip(envelope.data.post_type)}' is not handled`);
  }
}

function fromMessage(event: OneBotMessageEvent, raw: unknown, receivedAt: number): Conversion {
  // Some implementations report the bot's own sends as messages; answering them would loop.
  if (event.user_id === event.self_id) return ignored("message from the bot itself");
  const unnamed = event.message_type === "group" ? unnamedGroupSender(event) : null;
  if (unnamed) return ignored(unnamed);
  const target =
    event.message_type === "group" ? chat("group", event.group_id) : chat("private", event.user_id);
  if (!target.ok) return target;
  const name = event.sender?.card || event.sender?.nickname || null;
  const sender = senderOf(event.user_id, name, event.sender?.role || null);
  if (!sender.ok) return sender;
  // The chat's name when the event gives one: the group's name, or in a private chat the
  // friend's own nickname (never a group card: that is a name inside some group).
  const title = clipTitle(event.message_type === "group" ? event.group_name : event.sender?.nickname);
  const content = readOneBotMessage(event.message, {
    selfId: event.self_id,
    sender: { userId: event.user_id, name },
  });
  return ok({
    eventId: `onebot:${event.self_id}:msg:${event.message_id}`,
    transport: "onebot",
    kind: "message",
    wireType: `message.${event.message_type}`,
    chat: target.value,
    sender: sender.value,
    ...(title ? { chatTitle: title } : {}),
    message: {
      id: event.message_id,
      text: content.text,
      ts: Math.trunc(event.time * 1000),
      // A private message is always for the bot; in a group only when it @-mentions the bot.
      addressedToBot: event.message_type === "private" || content.mentionsBot,
      attachments: content.attachments,
      quotedMessageId: content.quotedMessageId,
    },
    deletedMessageId: null,
    reply: { kind: "msg_id", id: event.message_id },
    receivedAt,
    raw,
  });
}

/**
 * Why a group message names no member, or null when `user_id` is the member who said it. Every
 * anonymous member arrives under one placeholder user_id (80000000 in go-cqhttp), so taking
 * their messages would make them one account — one could list or forget another's items — and
 * where an implementation gives the real number instead, an anonymous speaker would be named.
 * A `notice` is a system line; a sub_type the spec does not name is not known to be a member's.
 */
function unnamedGroupSender(event: Extract<OneBotMessageEvent, { message_type: "group" }>): string | null {
  if (event.sub_type === "anonymous" || (event.anonymous !== undefined && event.anonymous !== null))
    return "an anonymous group message names no account";
  if (event.sub_type !== undefined && event.sub_type !== "normal")
    return `group sub_type '${clip(event.sub_type)}' is not a member's message`;
  return null;
}

function fromNotice(event: OneBotNoticeEvent, raw: unknown, receivedAt: number): Conversion {
  const self = event.self_id;
  switch (event.notice_type) {
    case "group_recall":
    case "friend_recall": {
      const target =
        event.notice_type === "group_recall" ? chat("group", event.group_id) : chat("private", event.user_id);
      // The sender is the recalled message's author; an admin may be the one who recalled it.
      return notice(event, raw, receivedAt, {
        kind: "message_deleted",
        eventId: `onebot:${self}:recall:${event.message_id}`,
        target,
        actor: event.user_id,
        deletedMessageId: event.message_id,
      });
    }
    case "group_increase":
      if (event.user_id !== self) return ignored("group_increase of another member");
      return notice(event, raw, receivedAt, {
        kind: "bot_added",
        eventId: `onebot:${self}:group_increase:${event.group_id}:${event.time}`,
        target: chat("group", event.group_id),
        actor: operator(event.operator_id, self),
      });
    case "group_decrease":
      if (event.sub_type !== "kick_me" && event.user_id !== self) {
        return ignored("group_decrease of another member");
      }
      return notice(event, raw, receivedAt, {
        kind: "bot_removed",
        eventId: `onebot:${self}:group_decrease:${event.group_id}:${event.time}`,
        target: chat("group", event.group_id),
        actor: operator(event.operator_id, self),
      });
    case "friend_add":
      return notice(event, raw, receivedAt, {
        kind: "friend_added",
        eventId: `onebot:${self}:friend_add:${event.user_id}:${event.time}`,
        target: chat("private", event.user_id),
        actor: event.user_id,
      });
  }
}

function notice(
  event: OneBotNoticeEvent,
  raw: unknown,
  receivedAt: number,
  parts: {
    kind: InboundKind;
    eventId: string;
    target: Result<InboundEvent["chat"], OneBotEventRejection>;
    actor: string | null;
    deletedMessageId?: string;
  },
): Conversion {
  if (!parts.target.ok) return parts.target;
  const sender = parts.actor === null ? ok(null) : senderOf(parts.actor, null, null);
  if (!sender.ok) return sender;
  return ok({
    eventId: parts.eventId,
    transport: "onebot",
    kind: parts.kind,
    wireType: `notice.${event.notice_type}`,
    chat: parts.target.value,
    sender: sender.value,
    message: null,
    deletedMessageId: parts.deletedMessageId ?? null,
    reply: { kind: "none" },
    receivedAt,
    raw,
  });
}

/** Longest chat title kept (QQ group names are at most 30 characters). */
const MAX_TITLE_CHARS = 100;

function clipTitle(name: string | null | undefined): string | null {
  const t = name?.trim();
  return t ? [...t].slice(0, MAX_TITLE_CHARS).join("") : null;
}

/** The operator of a join/leave, unless absent, 0 (an approval) or the bot itself (it left). */
function operator(id: string | undefined, self: string): string | null {
  return id === undefined || id === "0" || id === self ? null : id;
}

function chat(targetType: TargetType, targetId: string): Result<InboundEvent["chat"], OneBotEventRejection> {
  const address = chatAddress(CHANNEL, targetType, targetId);
  if (!address.ok) return err({ kind: "invalid", reason: `${address.error.field} ${address.error.reason}` });
  return ok({ key: chatKeyOf(address.value), ...address.value });
}

function senderOf(
  userId: string,
  displayName: string | null,
  role: string | null,
): Result<InboundSender, OneBotEventRejection> {
  const account = accountKey(CHANNEL, userId);
  if (!account.ok) return err({ kind: "invalid", reason: `user_id ${account.error.reason}` });
  return ok({ userId, account: account.value, displayName, role, unionId: null, isBot: false });
}

/** A string field of an object payload, for routing and reasons before full validation. */
function detail(payload: unknown, key: string): string {
  if (typeof payload !== "object" || payload === null) return "";
  const value: unknown = Reflect.get(payload, key);
  return typeof value === "string" ? clip(value) : "";
}

function ignored(reason: string): Conversion {
  return err({ kind: "ignored", reason });
}

/** The first issues as `path: message`; zod messages name types, not the values received. */
function invalid(error: ZodIssues): Conversion {
  const reason = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join(".") || "payload"}: ${issue.message}`)
    .join("; ");
  return err({ kind: "invalid", reason });
}

function clip(text: string): string {
  const s = text.replace(/\p{Cc}/gu, "?");
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}
