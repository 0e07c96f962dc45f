/**
 * Converters for QQ events that carry no message (docs/qq-protocol.md#qq-events): the bot joining or leaving
 * a group, friends, active-message switches, and guild message recalls.
 */
import type { InboundKind } from "../../domain/inbound/inbound-event";
import { ok } from "../../domain/kernel/result";
import { QqFriendEventSchema, QqGroupRobotEventSchema, QqMessageDeleteSchema } from "./qq-event.schema";
import {
  eventIdReply,
  parsePayload,
  type QqConversion,
  type QqEventContext,
  qqChat,
  qqEvent,
  qqSender,
} from "./qq-event-parts";

/** Kind per event, and whether the platform lets the bot answer it with `event_id`. */
type NoticeRule = { readonly kind: InboundKind; readonly replyable: boolean };

const GROUP_RULES: Readonly<Record<string, NoticeRule>> = {
  GROUP_ADD_ROBOT: { kind: "bot_added", replyable: true },
  GROUP_DEL_ROBOT: { kind: "bot_removed", replyable: false },
  GROUP_MSG_REJECT: { kind: "push_disabled", replyable: false },
  GROUP_MSG_RECEIVE: { kind: "push_enabled", replyable: true },
};

const FRIEND_RULES: Readonly<Record<string, NoticeRule>> = {
  FRIEND_ADD: { kind: "friend_added", replyable: true },
  FRIEND_DEL: { kind: "friend_removed", replyable: false },
  C2C_MSG_REJECT: { kind: "push_disabled", replyable: false },
  C2C_MSG_RECEIVE: { kind: "push_enabled", replyable: true },
};

export const GROUP_NOTICE_TYPES = Object.keys(GROUP_RULES);
export const FRIEND_NOTICE_TYPES = Object.keys(FRIEND_RULES);

/**
 * GROUP_ADD_ROBOT / _DEL_ROBOT / _MSG_REJECT / _MSG_RECEIVE: chat `qq:group:<group_openid>`,
 * sender = the member who acted (`op_member_openid`).
 */
export function groupNotice(context: QqEventContext): QqConversion {
  const rule = GROUP_RULES[context.type];
  if (!rule) return notHandled(context);
  const d = parsePayload(QqGroupRobotEventSchema, context);
  if (!d.ok) return d;
  const chat = qqChat("group", d.value.group_openid);
  if (!chat.ok) return chat;
  const sender = qqSender({ userId: d.value.op_member_openid });
  if (!sender.ok) return sender;
  return ok(
    qqEvent(context, {
      stableId: `${d.value.group_openid}:${d.value.op_member_openid}:${d.value.timestamp}`,
      kind: rule.kind,
      chat: chat.value,
      sender: sender.value,
      reply: rule.replyable ? eventIdReply(context) : { kind: "none" },
    }),
  );
}

/** FRIEND_ADD / _DEL, C2C_MSG_REJECT / _RECEIVE: the private chat `qq:private:<openid>`. */
export function friendNotice(context: QqEventContext): QqConversion {
  const rule = FRIEND_RULES[context.type];
  if (!rule) return notHandled(context);
  const d = parsePayload(QqFriendEventSchema, context);
  if (!d.ok) return d;
  const chat = qqChat("private", d.value.openid);
  if (!chat.ok) return chat;
  const sender = qqSender({ userId: d.value.openid, displayName: d.value.nick });
  if (!sender.ok) return sender;
  return ok(
    qqEvent(context, {
      stableId: `${d.value.openid}:${d.value.timestamp}`,
      kind: rule.kind,
      chat: chat.value,
      sender: sender.value,
      reply: rule.replyable ? eventIdReply(context) : { kind: "none" },
    }),
  );
}

/**
 * MESSAGE_DELETE / PUBLIC_MESSAGE_DELETE (chat `qq:channel:<channel_id>`) and
 * DIRECT_MESSAGE_DELETE (chat `qq:dm:<guild_id>`): `message_deleted` with the recalled id.
 * The sender is whoever recalled it (`op_user`), else the message's author.
 */
export function messageDeleted(context: QqEventContext): QqConversion {
  const d = parsePayload(QqMessageDeleteSchema, context);
  if (!d.ok) return d;
  const { message, op_user } = d.value;
  const direct = context.type === "DIRECT_MESSAGE_DELETE";
  const chat = direct ? qqChat("dm", message.guild_id ?? "") : qqChat("channel", message.channel_id ?? "");
  if (!chat.ok) return chat;
  const actorId = op_user?.id ?? message.author?.id ?? null;
  const isAuthor = actorId !== null && actorId === message.author?.id;
  const sender =
    actorId === null
      ? null
      : qqSender({
          userId: actorId,
          displayName: isAuthor ? message.author?.username : null,
          isBot: isAuthor ? message.author?.bot : false,
        });
  if (sender && !sender.ok) return sender;
  return ok(
    qqEvent(context, {
      stableId: message.id,
      kind: "message_deleted",
      chat: chat.value,
      sender: sender ? sender.value : null,
      deletedMessageId: message.id,
      reply: { kind: "none" },
    }),
  );
}

function notHandled(context: QqEventContext): QqConversion {
  return { ok: false, error: { kind: "ignored", reason: `${context.type} is not handled` } };
}
