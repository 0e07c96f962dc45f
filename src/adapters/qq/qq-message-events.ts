/**
 * Converters for QQ message events (docs/qq-protocol.md#message-events): group, C2C, guild channel and guild DM
 * messages → InboundEvent of kind `message`, answered passively with `msg_id` = `d.id`.
 */
import { composeMessageText } from "../../domain/chat/message-text";
import type { InboundMessage } from "../../domain/inbound/inbound-event";
import { err, ok, type Result } from "../../domain/kernel/result";
import {
  leadingMentionId,
  mentionedIds,
  parseQqAttachments,
  parseQqContent,
  type QqContentContext,
} from "./qq-content";
import {
  QqC2cMessageSchema,
  type QqGroupMention,
  QqGroupMessageSchema,
  QqGuildMessageSchema,
  type QqGuildUser,
} from "./qq-event.schema";
import {
  parsePayload,
  type QqConversion,
  type QqEventContext,
  type QqEventRejection,
  qqChat,
  qqEvent,
  qqSender,
} from "./qq-event-parts";
import { qqTimestampMs } from "./qq-timestamp";

/**
 * GROUP_AT_MESSAGE_CREATE (`atEvent`: always addressed to the bot) and GROUP_MESSAGE_CREATE
 * (addressed only when a mention has `is_you`). Chat `qq:group:<group_openid>`.
 */
export function groupMessage(context: QqEventContext, atEvent: boolean): QqConversion {
  const d = parsePayload(QqGroupMessageSchema, context);
  if (!d.ok) return d;
  const { author, mentions } = d.value;
  const content = groupContentContext(mentions ?? []);
  const chat = qqChat("group", d.value.group_openid);
  const sender = qqSender({
    userId: author.member_openid,
    displayName: author.username,
    role: author.member_role,
    unionId: author.union_openid,
    isBot: author.bot,
  });
  const message = inboundMessage(d.value, content, {
    addressedToBot: atEvent || (mentions ?? []).some((m) => m.is_you === true),
    quotedMessageId: quotedRefIdx(d.value),
  });
  return messageEvent(context, chat, sender, message);
}

/** C2C_MESSAGE_CREATE: a private chat `qq:private:<user_openid>`, always addressed to the bot. */
export function c2cMessage(context: QqEventContext): QqConversion {
  const d = parsePayload(QqC2cMessageSchema, context);
  if (!d.ok) return d;
  const { author } = d.value;
  const chat = qqChat("private", author.user_openid);
  const sender = qqSender({
    userId: author.user_openid,
    displayName: author.username,
    unionId: author.union_openid,
    isBot: author.bot,
  });
  const message = inboundMessage(
    d.value,
    { botIds: new Set(), names: new Map() },
    { addressedToBot: true, quotedMessageId: quotedRefIdx(d.value) },
  );
  return messageEvent(context, chat, sender, message);
}

/**
 * AT_MESSAGE_CREATE / MESSAGE_CREATE (`scene` channel: chat `qq:channel:<channel_id>`) and
 * DIRECT_MESSAGE_CREATE (`scene` dm: chat `qq:dm:<guild_id>`, the DM session's guild id that
 * replies go to, not `src_guild_id`). The bot's own mention is cut from the text.
 *
 * Guild events do not say which mention is the bot. With `options.botUserId` that id is used;
 * otherwise mentions flagged `bot: true`, or, for an AT_MESSAGE_CREATE without such a
 * mention, the mention that opens the content. AT_MESSAGE_CREATE and DMs are addressed to
 * the bot; MESSAGE_CREATE only when the bot is mentioned.
 */
export function guildMessage(context: QqEventContext, scene: "channel" | "dm"): QqConversion {
  const d = parsePayload(QqGuildMessageSchema, context);
  if (!d.ok) return d;
  if (!sceneAgrees(d.value, scene)) {
    return err({ kind: "ignored", reason: `${context.type}: the guild message's scene is contradictory` });
  }
  const { author, mentions, member } = d.value;
  const atEvent = context.type === "AT_MESSAGE_CREATE";
  const botIds = guildBotIds(d.value.content, mentions ?? [], context.options.botUserId, atEvent);
  const names = new Map<string, string>();
  for (const user of mentions ?? []) if (user.username) names.set(user.id, user.username);

  const chat = scene === "dm" ? qqChat("dm", d.value.guild_id) : qqChat("channel", d.value.channel_id);
  const sender = qqSender({
    userId: author.id,
    displayName: member?.nick || author.username,
    unionId: author.union_openid,
    isBot: author.bot,
  });
  const addressedToBot =
    scene === "dm" || atEvent || mentionedIds(d.value.content).some((id) => botIds.has(id));
  const message = inboundMessage(
    d.value,
    { botIds, names },
    { addressedToBot, quotedMessageId: d.value.message_reference?.message_id || null },
  );
  return messageEvent(context, chat, sender, message);
}

/**
 * Whether the payload agrees with the scene its event type names. `qq:dm:<guild_id>` is one
 * person's chat only because a DM session's guild is theirs alone: a DM keyed by its source
 * guild would be one "private" chat for every member who writes to the bot from that guild,
 * and a DM taken as a channel message would lose what private origin keeps. Either way the
 * chat is not certain, so the event is dropped rather than guessed.
 */
function sceneAgrees(
  d: { guild_id: string; direct_message?: boolean | null; src_guild_id?: string | null },
  scene: "channel" | "dm",
): boolean {
  if (scene === "channel") return d.direct_message !== true;
  return d.direct_message !== false && d.src_guild_id !== d.guild_id;
}

type MessageFields = {
  id: string;
  content: string;
  timestamp: string | number;
  attachments?: Parameters<typeof parseQqAttachments>[0];
};

/** Text (markup and attachments normalized, leading space trimmed), attachments and ts. */
function inboundMessage(
  d: MessageFields,
  content: QqContentContext,
  fields: { addressedToBot: boolean; quotedMessageId: string | null },
): Result<InboundMessage, QqEventRejection> {
  const ts = qqTimestampMs(d.timestamp);
  if (ts === null) return err({ kind: "invalid", reason: "message timestamp is unreadable" });
  const media = parseQqAttachments(d.attachments);
  return ok({
    id: d.id,
    text: composeMessageText([...parseQqContent(d.content, content), ...media.segments]),
    ts,
    addressedToBot: fields.addressedToBot,
    attachments: media.attachments,
    quotedMessageId: fields.quotedMessageId,
  });
}

function messageEvent(
  context: QqEventContext,
  chat: ReturnType<typeof qqChat>,
  sender: ReturnType<typeof qqSender>,
  message: Result<InboundMessage, QqEventRejection>,
): QqConversion {
  if (!chat.ok) return chat;
  if (!sender.ok) return sender;
  if (!message.ok) return message;
  return ok(
    qqEvent(context, {
      stableId: message.value.id,
      kind: "message",
      chat: chat.value,
      sender: sender.value,
      message: message.value,
      reply: { kind: "msg_id", id: message.value.id },
    }),
  );
}

/** Names by every id a group mention carries; the bot is the mention with `is_you`. */
function groupContentContext(mentions: readonly QqGroupMention[]): QqContentContext {
  const botIds = new Set<string>();
  const names = new Map<string, string>();
  for (const mention of mentions) {
    for (const id of [mention.id, mention.member_openid, mention.user_openid]) {
      if (!id) continue;
      if (mention.is_you) botIds.add(id);
      if (mention.username) names.set(id, mention.username);
    }
  }
  return { botIds, names };
}

function guildBotIds(
  content: string,
  mentions: readonly QqGuildUser[],
  botUserId: string | null | undefined,
  atEvent: boolean,
): Set<string> {
  if (botUserId) return new Set([botUserId]);
  const flagged = new Set(mentions.filter((user) => user.bot === true).map((user) => user.id));
  if (flagged.size > 0 || !atEvent) return flagged;
  // An @-event without a `mentions` list (the docs' own example): the bot's mention opens it.
  const leading = leadingMentionId(content);
  return new Set(leading ? [leading] : []);
}

/**
 * What a group/C2C message quotes. These scenes have no quoted message id, only the quoted
 * message's reference index (`REFIDX_…`): `ref_msg_idx=` in `message_scene.ext`, or
 * `msg_elements[0].msg_idx` of a quote (`message_type` 103). It matches the `msg_idx=` entry
 * in the quoted message's own `message_scene.ext`, kept in its raw payload.
 */
function quotedRefIdx(d: {
  message_scene?: { ext?: string[] | null } | null;
  message_type?: number | null;
  msg_elements?: { msg_idx?: string | null }[] | null;
}): string | null {
  for (const entry of d.message_scene?.ext ?? []) {
    if (entry.startsWith("ref_msg_idx=")) return entry.slice("ref_msg_idx=".length) || null;
  }
  return d.message_type === 103 ? d.msg_elements?.[0]?.msg_idx || null : null;
}
