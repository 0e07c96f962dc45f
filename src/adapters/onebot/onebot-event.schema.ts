/**
 * Wire shapes of the OneBot v11 events Akasha handles (HTTP POST reporting, as NapCat and
 * go-cqhttp send them). Unknown keys are dropped; the raw payload is kept separately.
 */
import { z } from "zod";

/** Ids are int64 numbers on the wire (some implementations send numeric strings); we keep strings. */
export const OneBotId = z.union([z.int(), z.string().regex(/^-?\d{1,20}$/)]).transform(String);

/** One message segment. Values in `data` are strings by the spec, numbers in some implementations. */
export type OneBotSegment = { readonly type: string; readonly data: Readonly<Record<string, unknown>> };

export const OneBotSegmentSchema = z
  .object({ type: z.string().min(1), data: z.record(z.string(), z.unknown()).nullish() })
  .transform((s): OneBotSegment => ({ type: s.type, data: s.data ?? {} }));

/** `message` is a segment array or a CQ-code string, depending on the implementation's message format. */
export const OneBotMessageSchema = z.union([z.string(), z.array(OneBotSegmentSchema)]);

/** Fields every reported event carries; `time` is seconds since the epoch. */
export const OneBotEnvelopeSchema = z.object({
  time: z.number().nonnegative(),
  self_id: OneBotId,
  post_type: z.string(),
});

const SenderSchema = z.object({
  user_id: OneBotId.optional(),
  nickname: z.string().nullish(),
  card: z.string().nullish(),
  role: z.string().nullish(),
});

export const PrivateMessageEventSchema = OneBotEnvelopeSchema.extend({
  post_type: z.literal("message"),
  message_type: z.literal("private"),
  sub_type: z.string().optional(),
  message_id: OneBotId,
  user_id: OneBotId,
  message: OneBotMessageSchema,
  sender: SenderSchema.nullish(),
});

export const GroupMessageEventSchema = PrivateMessageEventSchema.extend({
  message_type: z.literal("group"),
  group_id: OneBotId,
  /** The group's name: NapCat and some other implementations put it on group messages. */
  group_name: z.string().nullish(),
  /** Set on an anonymous member's message (`{id, name, flag}`), null otherwise; kept only to refuse it. */
  anonymous: z.unknown().optional(),
});

export const MessageEventSchema = z.discriminatedUnion("message_type", [
  PrivateMessageEventSchema,
  GroupMessageEventSchema,
]);
export type OneBotMessageEvent = z.infer<typeof MessageEventSchema>;
export const MESSAGE_TYPES: ReadonlySet<string> = new Set(["private", "group"]);

const NoticeBase = OneBotEnvelopeSchema.extend({ post_type: z.literal("notice") });

export const NoticeEventSchema = z.discriminatedUnion("notice_type", [
  NoticeBase.extend({
    notice_type: z.literal("group_recall"),
    group_id: OneBotId,
    user_id: OneBotId,
    operator_id: OneBotId.optional(),
    message_id: OneBotId,
  }),
  NoticeBase.extend({
    notice_type: z.literal("friend_recall"),
    user_id: OneBotId,
    message_id: OneBotId,
  }),
  NoticeBase.extend({
    notice_type: z.literal("group_increase"),
    sub_type: z.string().optional(),
    group_id: OneBotId,
    user_id: OneBotId,
    operator_id: OneBotId.optional(),
  }),
  NoticeBase.extend({
    notice_type: z.literal("group_decrease"),
    sub_type: z.string().optional(),
    group_id: OneBotId,
    user_id: OneBotId,
    operator_id: OneBotId.optional(),
  }),
  NoticeBase.extend({
    notice_type: z.literal("friend_add"),
    user_id: OneBotId,
  }),
]);
export type OneBotNoticeEvent = z.infer<typeof NoticeEventSchema>;
export const NOTICE_TYPES: ReadonlySet<string> = new Set([
  "group_recall",
  "friend_recall",
  "group_increase",
  "group_decrease",
  "friend_add",
]);

/** The `send_msg` reply: `status` ok | async | failed, `retcode` 0 on success. */
export const OneBotApiResponseSchema = z.object({
  status: z.string(),
  retcode: z.number(),
  data: z.object({ message_id: OneBotId.nullish() }).nullish(),
  message: z.string().nullish(),
  wording: z.string().nullish(),
});
export type OneBotApiResponse = z.infer<typeof OneBotApiResponseSchema>;
