/**
 * Wire shapes of QQ official-bot webhook bodies (docs/qq-protocol.md#qq-events). Fields the docs state are
 * required; fields only observed in SDKs or captures ([OBS]) are optional and may be null.
 * Unknown fields are accepted: the platform adds fields without notice.
 */
import { z } from "zod";
import { err, ok, type Result } from "../../domain/kernel/result";

/** Documented as an RFC 3339 string for messages and as integer seconds for management events. */
const Timestamp = z.union([z.string(), z.number()]);

/** Documented, but media-only messages have been seen with it empty; missing or null means no text. */
const Content = z
  .string()
  .nullish()
  .transform((text) => text ?? "");

/** Envelope of every webhook body. `d` is validated per event type, after `op` and `t` are known. */
export const QqEnvelopeSchema = z.looseObject({
  op: z.number().int(),
  id: z.string().min(1).nullish(),
  s: z.number().nullish(),
  t: z.string().nullish(),
  d: z.unknown(),
});
export type QqEnvelope = z.infer<typeof QqEnvelopeSchema>;

/** op 13 challenge. `event_ts` was once a number in the docs; both forms are accepted here. */
export const QqValidationSchema = z.object({
  plain_token: z.string(),
  event_ts: z.union([z.string(), z.number()]),
});

export const QqAttachmentSchema = z.object({
  content_type: z.string().nullish(),
  filename: z.string().nullish(),
  height: z.number().nullish(),
  width: z.number().nullish(),
  size: z.number().nullish(),
  url: z.string().nullish(),
  voice_wav_url: z.string().nullish(),
  asr_refer_text: z.string().nullish(),
});
export type QqAttachment = z.infer<typeof QqAttachmentSchema>;

/** Group `mentions[]` entry [OBS]; `is_you` marks the bot itself. */
const GroupMentionSchema = z.object({
  scope: z.string().nullish(),
  id: z.string().nullish(),
  member_openid: z.string().nullish(),
  user_openid: z.string().nullish(),
  username: z.string().nullish(),
  bot: z.boolean().nullish(),
  is_you: z.boolean().nullish(),
});
export type QqGroupMention = z.infer<typeof GroupMentionSchema>;

const MessageSceneSchema = z.object({
  source: z.string().nullish(),
  ext: z.array(z.string()).nullish(),
});

/** Fields shared by group and C2C messages. */
const V2MessageFields = {
  id: z.string().min(1),
  content: Content,
  timestamp: Timestamp,
  attachments: z.array(QqAttachmentSchema).nullish(),
  message_scene: MessageSceneSchema.nullish(),
  message_type: z.number().nullish(),
  /** With `message_type` 103 (a quote), `[0]` is the quoted message [OBS]. */
  msg_elements: z
    .array(z.object({ msg_idx: z.string().nullish(), message_type: z.number().nullish() }))
    .nullish(),
} as const;

/** GROUP_AT_MESSAGE_CREATE and GROUP_MESSAGE_CREATE. */
export const QqGroupMessageSchema = z.object({
  ...V2MessageFields,
  group_openid: z.string().min(1),
  group_id: z.string().nullish(),
  author: z.object({
    member_openid: z.string().min(1),
    id: z.string().nullish(),
    union_openid: z.string().nullish(),
    username: z.string().nullish(),
    bot: z.boolean().nullish(),
    member_role: z.string().nullish(),
  }),
  mentions: z.array(GroupMentionSchema).nullish(),
});
export type QqGroupMessage = z.infer<typeof QqGroupMessageSchema>;

/** C2C_MESSAGE_CREATE. */
export const QqC2cMessageSchema = z.object({
  ...V2MessageFields,
  author: z.object({
    user_openid: z.string().min(1),
    id: z.string().nullish(),
    union_openid: z.string().nullish(),
    username: z.string().nullish(),
    bot: z.boolean().nullish(),
  }),
});
export type QqC2cMessage = z.infer<typeof QqC2cMessageSchema>;

/** Guild `User`. */
const GuildUserSchema = z.object({
  id: z.string().min(1),
  username: z.string().nullish(),
  avatar: z.string().nullish(),
  bot: z.boolean().nullish(),
  union_openid: z.string().nullish(),
});
export type QqGuildUser = z.infer<typeof GuildUserSchema>;

/** AT_MESSAGE_CREATE, MESSAGE_CREATE and DIRECT_MESSAGE_CREATE: the guild `Message` object. */
export const QqGuildMessageSchema = z.object({
  id: z.string().min(1),
  channel_id: z.string().min(1),
  guild_id: z.string().min(1),
  content: Content,
  timestamp: Timestamp,
  author: GuildUserSchema,
  member: z
    .object({
      nick: z.string().nullish(),
      roles: z.array(z.string()).nullish(),
      joined_at: z.string().nullish(),
    })
    .nullish(),
  attachments: z.array(QqAttachmentSchema).nullish(),
  mentions: z.array(GuildUserSchema).nullish(),
  mention_everyone: z.boolean().nullish(),
  seq: z.number().nullish(),
  seq_in_channel: z.string().nullish(),
  message_reference: z.object({ message_id: z.string().nullish() }).nullish(),
  direct_message: z.boolean().nullish(),
  src_guild_id: z.string().nullish(),
});
export type QqGuildMessage = z.infer<typeof QqGuildMessageSchema>;

/** GROUP_ADD_ROBOT, GROUP_DEL_ROBOT, GROUP_MSG_REJECT, GROUP_MSG_RECEIVE. */
export const QqGroupRobotEventSchema = z.object({
  group_openid: z.string().min(1),
  op_member_openid: z.string().min(1),
  timestamp: Timestamp,
});
export type QqGroupRobotEvent = z.infer<typeof QqGroupRobotEventSchema>;

/** FRIEND_ADD, FRIEND_DEL, C2C_MSG_REJECT, C2C_MSG_RECEIVE. */
export const QqFriendEventSchema = z.object({
  openid: z.string().min(1),
  timestamp: Timestamp,
  nick: z.string().nullish(),
  avatar: z.string().nullish(),
});
export type QqFriendEvent = z.infer<typeof QqFriendEventSchema>;

/** MESSAGE_DELETE, PUBLIC_MESSAGE_DELETE, DIRECT_MESSAGE_DELETE. */
export const QqMessageDeleteSchema = z.object({
  message: z.object({
    id: z.string().min(1),
    channel_id: z.string().nullish(),
    guild_id: z.string().nullish(),
    author: GuildUserSchema.nullish(),
  }),
  op_user: z.object({ id: z.string().min(1) }).nullish(),
});
export type QqMessageDelete = z.infer<typeof QqMessageDeleteSchema>;

/**
 * Parses a webhook body into the envelope. The reason names the failing paths, never values:
 * bodies carry user text that must not reach logs.
 */
export function parseQqEnvelope(json: unknown): Result<QqEnvelope, { kind: "invalid"; reason: string }> {
  const parsed = QqEnvelopeSchema.safeParse(json);
  return parsed.success ? ok(parsed.data) : err({ kind: "invalid", reason: describeIssues(parsed.error) });
}

/**
 * `author.member_openid: Invalid input: expected string, received undefined; …` — the first
 * three issues, with paths and types, never values.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
}
