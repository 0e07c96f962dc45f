// Example payloads of every QQ event kind and the helpers that wrap them in a dispatch, shared by
// the toInboundEvent tests (docs/qq-protocol.md#qq-events).
import { toInboundEvent } from "@src/adapters/qq/qq-event";
import { parseQqEnvelope, type QqEnvelope } from "@src/adapters/qq/qq-event.schema";

export const RECEIVED = 1_767_225_600_000;

export function envelope(json: unknown): QqEnvelope {
  const parsed = parseQqEnvelope(json);
  if (!parsed.ok) throw new Error(parsed.error.reason);
  return parsed.value;
}

export function convert(json: unknown, options?: { botUserId?: string }) {
  const result = toInboundEvent(envelope(json), RECEIVED, options);
  if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.reason}`);
  return result.value;
}

/** The error toInboundEvent gives for `json`, or null when it takes the event. */
export function reject(json: unknown) {
  const result = toInboundEvent(envelope(json), RECEIVED);
  return result.ok ? null : result.error;
}

/** A dispatch envelope; `id: null` leaves the envelope id out. */
export const dispatch = (t: string, d: unknown, id: string | null = `${t}:evt-1`) =>
  id === null ? { op: 0, t, d } : { op: 0, id, t, d };

export const GROUP_AT_EXAMPLE = {
  op: 0,
  id: "GROUP_AT_MESSAGE_CREATE:yit7pdisg1ugi2ejzlc2ftxchdbcvuwyprx6jusrlcb3ifop7ft9skolij8yha",
  t: "GROUP_AT_MESSAGE_CREATE",
  d: {
    id: "ROBOT1.0_yiT7pd.iSG1ugi2eJZLC-4hjLnBZLEexTLIZboQEsNgdqRNv9EV2xw0aYNn76KurHB.MGL6iFrTqL73j.uv-O8U1msiTe5JeJMfw9nzdrjc!",
    content: " lssv",
    timestamp: "2025-09-08T23:13:34+08:00",
    author: {
      id: "0BA13D42931777D3922F226B6B5D7F13",
      member_openid: "0BA13D42931777D3922F226B6B5D7F13",
      union_openid: "0BA13D42931777D3922F226B6B5D7F13",
    },
    group_id: "82B3406CB35C23E1071C8D6EC61C6064",
    group_openid: "82B3406CB35C23E1071C8D6EC61C6064",
    message_scene: { source: "default", ext: ["msg_idx=REFIDX_xxxx==", "auth_token=xxxx"] },
    message_type: 0,
    attachments: [
      {
        content_type: "image/jpeg",
        filename: "A1B2.jpg",
        height: 1080,
        width: 1920,
        size: 123456,
        url: "https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=...",
      },
    ],
    mentions: [
      { scope: "single", id: "...", member_openid: "...", username: "bot-name", bot: true, is_you: true },
    ],
  },
};

export const C2C_EXAMPLE = {
  op: 0,
  id: "C2C_MESSAGE_CREATE:abc",
  t: "C2C_MESSAGE_CREATE",
  d: {
    id: "ROBOT1.0_.b6nx.CVryAO0nR58RXuU6SC.m92gc19j02qKqdm8ek!",
    author: {
      id: "E4F4AEA33253A2797FB897C50B81D7ED",
      user_openid: "E4F4AEA33253A2797FB897C50B81D7ED",
      union_openid: "E4F4AEA33253A2797FB897C50B81D7ED",
    },
    content: "123",
    timestamp: "2023-11-06T13:37:18+08:00",
    message_scene: { source: "default", ext: ["msg_idx=REFIDX_abc=="] },
    message_type: 0,
    attachments: [
      {
        content_type: "voice",
        filename: "x.amr",
        size: 4321,
        url: "https://media.test/x.amr",
        voice_wav_url: "https://media.test/x.wav",
        asr_refer_text: "recognised speech",
      },
    ],
  },
};

/** What a channel message and a direct message both carry: the same author in the same guild. */
export const GUILD_AUTHORED = {
  author: { avatar: "http://thirdqq.qlogo.cn/0", bot: false, id: "1234", username: "abc" },
  channel_id: "100010",
  guild_id: "18700000000001",
  id: "0812345677890abcdef",
  member: { joined_at: "2021-04-12T16:34:42+08:00", roles: ["1"] },
  timestamp: "2021-05-20T15:14:58+08:00",
};

export const GUILD_MESSAGE = {
  ...GUILD_AUTHORED,
  content: "<@!6158788878435714165> ndnnd",
  seq: 101,
  seq_in_channel: "101",
};

export const DIRECT_MESSAGE = {
  ...GUILD_AUTHORED,
  content: "ndnnd",
  direct_message: true,
  src_guild_id: "18700000000002",
};

export const GROUP_NOTICE = {
  group_openid: "C9F778FE6ADF9D1D1DBE395BF744A33A",
  op_member_openid: "E4F4AEA33253A2797FB897C50B81D7ED",
  timestamp: 1699240248,
};
export const FRIEND_NOTICE = { openid: "E4F4AEA33253A2797FB897C50B81D7ED", timestamp: 1699240365 };
export const DELETE_NOTICE = {
  message: {
    id: "08e0abc",
    channel_id: "100010",
    guild_id: "18700000000001",
    author: { id: "1234", username: "abc", bot: false },
  },
  op_user: { id: "1234" },
};
