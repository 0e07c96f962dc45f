/**
 * One inbound event type for every transport (QQ official webhook, OneBot v11).
 * Adapters turn wire payloads into this shape; everything after the webhook sees only this.
 * It is plain data: it crosses Durable Object RPC and is stored as JSON in the chat's inbox.
 */
import type { AccountKey, ChatKey, TargetType } from "../chat/chat-address";

export type Transport = "qq" | "onebot";

export type InboundKind =
  | "message" //            a user's message in a group, private chat, guild channel or guild DM
  | "message_deleted" //    a message was recalled
  | "bot_added" //          the bot joined a group
  | "bot_removed" //        the bot was removed from a group
  | "friend_added" //       a user added the bot (C2C)
  | "friend_removed" //     a user removed the bot
  | "push_disabled" //      the group/user turned off the bot's active messages
  | "push_enabled"; //      …and turned them back on

export type InboundSender = {
  /** Platform user id as the chat sees it (member_openid in groups, user_openid in C2C). */
  readonly userId: string;
  readonly account: AccountKey;
  readonly displayName: string | null;
  /** `owner` | `admin` | `member` when the platform says so. */
  readonly role: string | null;
  /** QQ union_openid: one id for the same human across groups and private chat. */
  readonly unionId: string | null;
  readonly isBot: boolean;
};

export type InboundAttachment = {
  /** image | voice | video | file | other */
  readonly kind: "image" | "voice" | "video" | "file" | "other";
  readonly url: string | null;
  readonly filename: string | null;
  readonly contentType: string | null;
  /** Speech-to-text the platform supplies for voice messages. */
  readonly transcript: string | null;
};

export type InboundMessage = {
  /** Platform message id (QQ `d.id`, OneBot `message_id`). */
  readonly id: string;
  /** Normalized text: mentions as `@nick`, media as `[图片]`, `[表情]`, entities unescaped. */
  readonly text: string;
  /** Ms since epoch, from the platform's own timestamp (stable across redelivery). */
  readonly ts: number;
  /** True when the message is addressed to the bot (QQ @-events and C2C; OneBot @bot or private). */
  readonly addressedToBot: boolean;
  readonly attachments: readonly InboundAttachment[];
  /** Id of the message this one quotes, when known. */
  readonly quotedMessageId: string | null;
};

/** How a reply to this event is made passive (QQ): by message id or by event id. */
export type ReplyHandle =
  | { readonly kind: "msg_id"; readonly id: string }
  | { readonly kind: "event_id"; readonly id: string }
  | { readonly kind: "none" };

export type InboundEvent = {
  /** Envelope id (QQ `id`) or a stable id derived from the OneBot event; dedupe key. */
  readonly eventId: string;
  readonly transport: Transport;
  readonly kind: InboundKind;
  /** Wire event type (`GROUP_AT_MESSAGE_CREATE`, `message.group`, …), for logs and audit. */
  readonly wireType: string;
  readonly chat: {
    readonly key: ChatKey;
    readonly channel: string;
    readonly targetType: TargetType;
    readonly targetId: string;
  };
  readonly sender: InboundSender | null;
  /**
   * The platform's name for the chat when the event carries one (OneBot `group_name`, a
   * friend's nickname in a private chat); QQ official events carry none. It reaches
   * `chats.title` with the chat's registry row, flushed from the chat object's alarm.
   */
  readonly chatTitle?: string;
  readonly message: InboundMessage | null;
  /** For message_deleted: the id of the recalled message. */
  readonly deletedMessageId: string | null;
  readonly reply: ReplyHandle;
  /** Ms since epoch when the Worker accepted the event. */
  readonly receivedAt: number;
  /**
   * The SHA-256 digest of the one-time admin code a `/claim <code>` message carried, taken
   * before the code was masked (identity/admin-claim.ts); absent for every other message.
   */
  readonly claimDigest?: string;
  /** The wire payload as received (parsed JSON), kept for the message log's raw_json. */
  readonly raw: unknown;
};
