// toInboundEvent for every event type, with example payloads of every kind (docs/qq-protocol.md#qq-events).

import { parseQqEnvelope } from "@src/adapters/qq/qq-event.schema";
import { describe, it } from "vitest";
import {
  C2C_EXAMPLE,
  convert,
  DELETE_NOTICE,
  DIRECT_MESSAGE,
  dispatch,
  FRIEND_NOTICE,
  GROUP_AT_EXAMPLE,
  GROUP_NOTICE,
  GUILD_MESSAGE,
  RECEIVED,
  reject,
} from "./qq-event-payloads";
import { QQ_VECTORS } from "./qq-vectors";

describe("toInboundEvent: group messages", () => {
  it("converts the V2 dispatch body", async ({ expect }) => {
    const event = convert(JSON.parse(QQ_VECTORS.V2.body));
    expect(event).toMatchObject({
      eventId: "GROUP_AT_MESSAGE_CREATE:testevent0001",
      transport: "qq",
      kind: "message",
      wireType: "GROUP_AT_MESSAGE_CREATE",
      chat: {
        key: "qq:group:C9F778FE6ADF9D1D1DBE395BF744A33A",
        channel: "qq",
        targetType: "group",
        targetId: "C9F778FE6ADF9D1D1DBE395BF744A33A",
      },
      sender: {
        userId: "E4F4AEA33253A2797FB897C50B81D7ED",
        account: "qq:user:E4F4AEA33253A2797FB897C50B81D7ED",
        unionId: "E4F4AEA33253A2797FB897C50B81D7ED",
        displayName: null,
        role: null,
        isBot: false,
      },
      message: {
        id: "ROBOT1.0_testmsg0001",
        text: "你好 /help",
        ts: Date.parse("2025-01-01T00:00:01Z"),
        addressedToBot: true,
        attachments: [],
        quotedMessageId: null,
      },
      deletedMessageId: null,
      reply: { kind: "msg_id", id: "ROBOT1.0_testmsg0001" },
      receivedAt: RECEIVED,
    });
  });

  it("keeps the envelope as raw", async ({ expect }) => {
    const json = JSON.parse(QQ_VECTORS.V2.body);
    expect(convert(json).raw).toEqual(json);
  });

  it("converts the captured GROUP_AT_MESSAGE_CREATE example with an image", async ({ expect }) => {
    const event = convert(GROUP_AT_EXAMPLE);
    expect(event.chat.key).toBe("qq:group:82B3406CB35C23E1071C8D6EC61C6064");
    expect(event.message?.text).toBe("lssv [图片]");
    expect(event.message?.attachments).toEqual([
      {
        kind: "image",
        url: "https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=...",
        filename: "A1B2.jpg",
        contentType: "image/jpeg",
        transcript: null,
      },
    ]);
    expect(event.message?.ts).toBe(Date.parse("2025-09-08T15:13:34Z"));
  });

  it("reads the observed username and member_role", async ({ expect }) => {
    const json = structuredClone(GROUP_AT_EXAMPLE);
    Object.assign(json.d.author, { username: "Alice", member_role: "admin" });
    expect(convert(json).sender).toMatchObject({ displayName: "Alice", role: "admin" });
  });

  it("marks GROUP_MESSAGE_CREATE addressed only when a mention is_you", async ({ expect }) => {
    const base = { ...GROUP_AT_EXAMPLE.d, content: "大家好", mentions: undefined, attachments: undefined };
    const plain = convert(dispatch("GROUP_MESSAGE_CREATE", base));
    expect(plain.message?.addressedToBot).toBe(false);
    expect(plain.reply).toEqual({ kind: "msg_id", id: base.id });

    const mentioned = convert(
      dispatch("GROUP_MESSAGE_CREATE", {
        ...base,
        content: '<qqbot-at-user id="BOTID" /> 你好 <qqbot-at-user id="U2" />',
        mentions: [
          { member_openid: "BOTID", username: "bot", bot: true, is_you: true },
          { member_openid: "U2", username: "Bob" },
        ],
      }),
    );
    expect(mentioned.message?.addressedToBot).toBe(true);
    expect(mentioned.message?.text).toBe("你好 @Bob");
  });

  it("takes the quoted message's reference index from message_scene or msg_elements", async ({ expect }) => {
    const scene = convert(
      dispatch("GROUP_AT_MESSAGE_CREATE", {
        ...GROUP_AT_EXAMPLE.d,
        message_scene: { source: "default", ext: ["msg_idx=REFIDX_me==", "ref_msg_idx=REFIDX_q=="] },
      }),
    );
    expect(scene.message?.quotedMessageId).toBe("REFIDX_q==");
    const element = convert(
      dispatch("C2C_MESSAGE_CREATE", {
        ...C2C_EXAMPLE.d,
        message_scene: null,
        message_type: 103,
        msg_elements: [{ msg_idx: "REFIDX_el==", message_type: 0, content: "quoted" }],
      }),
    );
    expect(element.message?.quotedMessageId).toBe("REFIDX_el==");
  });
});

describe("toInboundEvent: C2C messages", () => {
  it("converts the V3 dispatch body", async ({ expect }) => {
    const event = convert(JSON.parse(QQ_VECTORS.V3.body));
    expect(event).toMatchObject({
      eventId: "C2C_MESSAGE_CREATE:testevent0002",
      kind: "message",
      chat: { key: "qq:private:A1B2C3D4E5F60718293A4B5C6D7E8F90", targetType: "private" },
      sender: {
        userId: "A1B2C3D4E5F60718293A4B5C6D7E8F90",
        account: "qq:user:A1B2C3D4E5F60718293A4B5C6D7E8F90",
      },
      message: { id: "ROBOT1.0_testmsg0002", text: "ping", addressedToBot: true, quotedMessageId: null },
      reply: { kind: "msg_id", id: "ROBOT1.0_testmsg0002" },
    });
  });

  it("converts the C2C example with a transcribed voice message", async ({ expect }) => {
    const event = convert(C2C_EXAMPLE);
    expect(event.chat.key).toBe("qq:private:E4F4AEA33253A2797FB897C50B81D7ED");
    expect(event.sender?.unionId).toBe("E4F4AEA33253A2797FB897C50B81D7ED");
    expect(event.message?.text).toBe("123 [语音] recognised speech");
    expect(event.message?.attachments).toEqual([
      {
        kind: "voice",
        url: "https://media.test/x.wav",
        filename: "x.amr",
        contentType: "voice",
        transcript: "recognised speech",
      },
    ]);
  });

  it("derives a stable event id from t and d.id when the envelope has none", async ({ expect }) => {
    const { id: _id, ...withoutId } = C2C_EXAMPLE;
    const event = convert(withoutId);
    expect(event.eventId).toBe(`C2C_MESSAGE_CREATE:${C2C_EXAMPLE.d.id}`);
    expect(convert(withoutId).eventId).toBe(event.eventId);
  });

  it("accepts integer-second timestamps", async ({ expect }) => {
    const event = convert(dispatch("C2C_MESSAGE_CREATE", { ...C2C_EXAMPLE.d, timestamp: 1699240248 }));
    expect(event.message?.ts).toBe(1_699_240_248_000);
  });

  it("unescapes entities in text", async ({ expect }) => {
    const event = convert(
      dispatch("C2C_MESSAGE_CREATE", { ...C2C_EXAMPLE.d, content: "a &lt;b&gt; &amp; c" }),
    );
    expect(event.message?.text).toBe("a <b> & c [语音] recognised speech");
  });
});

describe("toInboundEvent: guild messages", () => {
  it("converts AT_MESSAGE_CREATE to the channel chat and strips the bot mention", async ({ expect }) => {
    const event = convert(dispatch("AT_MESSAGE_CREATE", GUILD_MESSAGE));
    expect(event).toMatchObject({
      kind: "message",
      chat: { key: "qq:channel:100010", targetType: "channel", targetId: "100010" },
      sender: { userId: "1234", account: "qq:user:1234", displayName: "abc", isBot: false },
      message: { id: "0812345677890abcdef", text: "ndnnd", addressedToBot: true },
      reply: { kind: "msg_id", id: "0812345677890abcdef" },
    });
    expect(event.message?.ts).toBe(Date.parse("2021-05-20T07:14:58Z"));
  });

  it("names other mentioned users and uses the member nick", async ({ expect }) => {
    const event = convert(
      dispatch("AT_MESSAGE_CREATE", {
        ...GUILD_MESSAGE,
        content: "<@!6158788878435714165> ping <@!555> and <@!777>",
        member: { nick: "阿布" },
        mentions: [
          { id: "6158788878435714165", username: "bot", bot: true },
          { id: "555", username: "Carol", bot: false },
        ],
        message_reference: { message_id: "08quoted" },
      }),
    );
    expect(event.message?.text).toBe("ping @Carol and @777");
    expect(event.sender?.displayName).toBe("阿布");
    expect(event.message?.quotedMessageId).toBe("08quoted");
  });

  it("recognises the bot by the configured botUserId", async ({ expect }) => {
    const event = convert(
      dispatch("MESSAGE_CREATE", { ...GUILD_MESSAGE, content: "hello <@!6158788878435714165>" }),
      { botUserId: "6158788878435714165" },
    );
    expect(event.message).toMatchObject({ text: "hello", addressedToBot: true });
  });

  it("treats MESSAGE_CREATE without a bot mention as not addressed", async ({ expect }) => {
    const event = convert(dispatch("MESSAGE_CREATE", { ...GUILD_MESSAGE, content: "just chatting <@!555>" }));
    expect(event.chat.key).toBe("qq:channel:100010");
    expect(event.message).toMatchObject({ text: "just chatting @555", addressedToBot: false });
  });

  it("converts DIRECT_MESSAGE_CREATE to the DM session's guild, not src_guild_id", async ({ expect }) => {
    const event = convert(dispatch("DIRECT_MESSAGE_CREATE", DIRECT_MESSAGE));
    expect(event).toMatchObject({
      kind: "message",
      chat: { key: "qq:dm:18700000000001", targetType: "dm", targetId: "18700000000001" },
      message: { text: "ndnnd", addressedToBot: true },
      reply: { kind: "msg_id", id: "0812345677890abcdef" },
    });
  });
});

describe("toInboundEvent: group and friend notices", () => {
  const group = { key: "qq:group:C9F778FE6ADF9D1D1DBE395BF744A33A", targetType: "group" };
  const friend = { key: "qq:private:E4F4AEA33253A2797FB897C50B81D7ED", targetType: "private" };

  it.for([
    ["GROUP_ADD_ROBOT", "bot_added", true, GROUP_NOTICE, group],
    ["GROUP_DEL_ROBOT", "bot_removed", false, GROUP_NOTICE, group],
    ["GROUP_MSG_REJECT", "push_disabled", false, GROUP_NOTICE, group],
    ["GROUP_MSG_RECEIVE", "push_enabled", true, GROUP_NOTICE, group],
    ["FRIEND_ADD", "friend_added", true, FRIEND_NOTICE, friend],
    ["FRIEND_DEL", "friend_removed", false, FRIEND_NOTICE, friend],
    ["C2C_MSG_REJECT", "push_disabled", false, FRIEND_NOTICE, friend],
    ["C2C_MSG_RECEIVE", "push_enabled", true, FRIEND_NOTICE, friend],
  ] as const)("converts %s to %s", async ([t, kind, replyable, payload, chat], { expect }) => {
    const event = convert(dispatch(t, payload, `${t}:notice-1`));
    expect(event).toMatchObject({
      eventId: `${t}:notice-1`,
      kind,
      wireType: t,
      chat,
      sender: {
        userId: "E4F4AEA33253A2797FB897C50B81D7ED",
        account: "qq:user:E4F4AEA33253A2797FB897C50B81D7ED",
      },
      message: null,
      deletedMessageId: null,
      reply: replyable ? { kind: "event_id", id: `${t}:notice-1` } : { kind: "none" },
    });
  });

  it("cannot offer an event_id reply without an envelope id, but still has a stable event id", async ({
    expect,
  }) => {
    const event = convert(dispatch("GROUP_ADD_ROBOT", GROUP_NOTICE, null));
    expect(event.reply).toEqual({ kind: "none" });
    expect(event.eventId).toBe(
      "GROUP_ADD_ROBOT:C9F778FE6ADF9D1D1DBE395BF744A33A:E4F4AEA33253A2797FB897C50B81D7ED:1699240248",
    );
  });
});

describe("toInboundEvent: guild recalls", () => {
  it.for([
    ["MESSAGE_DELETE", "qq:channel:100010"],
    ["PUBLIC_MESSAGE_DELETE", "qq:channel:100010"],
    ["DIRECT_MESSAGE_DELETE", "qq:dm:18700000000001"],
  ] as const)("converts %s into message_deleted in %s", async ([t, chatKey], { expect }) => {
    const event = convert(dispatch(t, DELETE_NOTICE));
    expect(event).toMatchObject({
      kind: "message_deleted",
      chat: { key: chatKey },
      sender: { userId: "1234", displayName: "abc" },
      message: null,
      deletedMessageId: "08e0abc",
      reply: { kind: "none" },
    });
  });

  it("names the recaller, not the author, when an admin recalls", async ({ expect }) => {
    const event = convert(dispatch("MESSAGE_DELETE", { ...DELETE_NOTICE, op_user: { id: "9999" } }));
    expect(event.sender).toMatchObject({ userId: "9999", displayName: null });
  });
});

describe("toInboundEvent: what it refuses", () => {
  it.for([
    [
      "INTERACTION_CREATE",
      { id: "30540ff7", type: 11, scene: "group", chat_type: 1, timestamp: "2024-01-01T12:00:00+08:00" },
    ],
    ["MESSAGE_AUDIT_PASS", { audit_id: "a", message_id: "m", guild_id: "g", channel_id: "c" }],
    ["MESSAGE_AUDIT_REJECT", { audit_id: "a", guild_id: "g", channel_id: "c" }],
    ["GROUP_MEMBER_ADD", { group_openid: "G", member_openid: "M", timestamp: 1 }],
    ["SOMETHING_NEW", {}],
  ] as const)("ignores %s with a reason", async ([t, d], { expect }) => {
    const error = reject(dispatch(t, d));
    expect(error?.kind).toBe("ignored");
    expect(error?.reason).toContain(t);
  });

  it("ignores envelopes that are not dispatches or have no type", async ({ expect }) => {
    expect(reject({ op: 13, d: { plain_token: "a", event_ts: "1" } })?.kind).toBe("ignored");
    expect(reject({ op: 0, d: {} })?.kind).toBe("ignored");
  });

  it("flags a handled type with a malformed payload as invalid, naming fields but not values", async ({
    expect,
  }) => {
    const error = reject(
      dispatch("GROUP_AT_MESSAGE_CREATE", { ...GROUP_AT_EXAMPLE.d, content: "secret text", author: {} }),
    );
    expect(error?.kind).toBe("invalid");
    expect(error?.reason).toContain("author.member_openid");
    expect(error?.reason).not.toContain("secret text");
  });

  it("flags an unreadable timestamp and an id that cannot form a chat key as invalid", async ({ expect }) => {
    expect(reject(dispatch("C2C_MESSAGE_CREATE", { ...C2C_EXAMPLE.d, timestamp: "yesterday" }))?.kind).toBe(
      "invalid",
    );
    expect(reject(dispatch("FRIEND_ADD", { openid: "a:b", timestamp: 1 }))?.kind).toBe("invalid");
  });

  it("refuses a body that is not an envelope", async ({ expect }) => {
    expect(parseQqEnvelope({ op: "0" }).ok).toBe(false);
    expect(parseQqEnvelope(null).ok).toBe(false);
  });
});

describe("toInboundEvent: media-only messages", () => {
  it("reads a message whose content is missing or null as attachments only", async ({ expect }) => {
    const { content: _content, ...withoutContent } = C2C_EXAMPLE.d;
    expect(convert(dispatch("C2C_MESSAGE_CREATE", withoutContent)).message?.text).toBe(
      "[语音] recognised speech",
    );
    expect(
      convert(dispatch("GROUP_AT_MESSAGE_CREATE", { ...GROUP_AT_EXAMPLE.d, content: null })).message?.text,
    ).toBe("[图片]");
  });
});
