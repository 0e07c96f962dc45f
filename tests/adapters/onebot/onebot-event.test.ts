import { toInboundEvent } from "@src/adapters/onebot/onebot-event";
import { describe, it } from "vitest";

const SELF = 10001;
const RECEIVED = 1_700_000_005_000;

/** A group message as NapCat reports it with message_format "array". */
function groupMessage(overrides: Record<string, unknown> = {}) {
  return {
    self_id: SELF,
    user_id: 20002,
    time: 1_700_000_000,
    message_id: 123456,
    message_seq: 123456,
    real_id: 123456,
    message_type: "group",
    sender: { user_id: 20002, nickname: "小明", card: "明明", role: "admin" },
    raw_message: "[CQ:at,qq=10001] 你好",
    font: 14,
    sub_type: "normal",
    message: [
      { type: "at", data: { qq: "10001" } },
      { type: "text", data: { text: " 你好" } },
    ],
    message_format: "array",
    post_type: "message",
    group_id: 30003,
    ...overrides,
  };
}

function privateMessage(overrides: Record<string, unknown> = {}) {
  return {
    self_id: SELF,
    user_id: 20002,
    time: 1_700_000_000,
    message_id: -2147000001,
    message_type: "private",
    sub_type: "friend",
    sender: { user_id: 20002, nickname: "小明", card: "" },
    message: "在吗",
    raw_message: "在吗",
    font: 0,
    post_type: "message",
    ...overrides,
  };
}

function notice(noticeType: string, fields: Record<string, unknown>) {
  return { time: 1_700_000_100, self_id: SELF, post_type: "notice", notice_type: noticeType, ...fields };
}

describe("toInboundEvent: messages", () => {
  it("normalizes a group message that @-mentions the bot", ({ expect }) => {
    const payload = groupMessage();
    expect(toInboundEvent(payload, RECEIVED)).toEqual({
      ok: true,
      value: {
        eventId: "onebot:10001:msg:123456",
        transport: "onebot",
        kind: "message",
        wireType: "message.group",
        chat: { key: "onebot:group:30003", channel: "onebot", targetType: "group", targetId: "30003" },
        sender: {
          userId: "20002",
          account: "onebot:user:20002",
          displayName: "明明",
          role: "admin",
          unionId: null,
          isBot: false,
        },
        message: {
          id: "123456",
          text: "你好",
          ts: 1_700_000_000_000,
          addressedToBot: true,
          attachments: [],
          quotedMessageId: null,
        },
        deletedMessageId: null,
        reply: { kind: "msg_id", id: "123456" },
        receivedAt: RECEIVED,
        raw: payload,
      },
    });
  });

  it("does not address the bot in a group without an @ of it", ({ expect }) => {
    const result = toInboundEvent(
      groupMessage({ message: [{ type: "text", data: { text: "大家好" } }] }),
      RECEIVED,
    );
    expect(result).toMatchObject({ ok: true, value: { message: { text: "大家好", addressedToBot: false } } });
  });

  it("normalizes a private CQ-string message; private messages address the bot", ({ expect }) => {
    const result = toInboundEvent(privateMessage(), RECEIVED);
    expect(result).toMatchObject({
      ok: true,
      value: {
        eventId: "onebot:10001:msg:-2147000001",
        wireType: "message.private",
        chat: { key: "onebot:private:20002", targetType: "private", targetId: "20002" },
        // An empty card falls back to the nickname; private senders have no role.
        sender: { userId: "20002", account: "onebot:user:20002", displayName: "小明", role: null },
        message: { id: "-2147000001", text: "在吗", addressedToBot: true },
        reply: { kind: "msg_id", id: "-2147000001" },
      },
    });
  });

  it("reads the same content from the CQ-string and the array forms", ({ expect }) => {
    const cq =
      "[CQ:reply,id=99][CQ:at,qq=10001] 看 [CQ:at,qq=all] [CQ:at,qq=30004] [CQ:face,id=14]&#91;笑&#93;";
    const array = [
      { type: "reply", data: { id: "99" } },
      { type: "at", data: { qq: "10001" } },
      { type: "text", data: { text: " 看 " } },
      { type: "at", data: { qq: "all" } },
      { type: "text", data: { text: " " } },
      { type: "at", data: { qq: "30004" } },
      { type: "text", data: { text: " " } },
      { type: "face", data: { id: "14" } },
      { type: "text", data: { text: "[笑]" } },
    ];
    const fromCq = toInboundEvent(groupMessage({ message: cq }), RECEIVED);
    const fromArray = toInboundEvent(groupMessage({ message: array }), RECEIVED);
    const expected = { text: "看 @全体成员 @30004 [表情] [笑]", addressedToBot: true, quotedMessageId: "99" };
    expect(fromCq).toMatchObject({ ok: true, value: { message: expected } });
    expect(fromArray).toMatchObject({ ok: true, value: { message: expected } });
  });

  it("names mentions from the segment's name, or the sender's card when they @ themselves", ({ expect }) => {
    const message = [
      { type: "at", data: { qq: 30004, name: "@小红" } },
      { type: "text", data: { text: " 和 " } },
      { type: "at", data: { qq: "20002" } },
    ];
    const result = toInboundEvent(groupMessage({ message }), RECEIVED);
    expect(result).toMatchObject({
      ok: true,
      value: { message: { text: "@小红 和 @明明", addressedToBot: false } },
    });
  });

  it("turns media into placeholders and attachments", ({ expect }) => {
    const cq =
      "[CQ:image,file=abc.image,url=https://multimedia.nt.qq.com.cn/a&amp;b]" +
      "[CQ:record,file=v.amr][CQ:video,file=https://x.test/v.mp4][CQ:file,file=f1,name=报告.pdf]" +
      "[CQ:mface,summary=&#91;开心&#93;][CQ:forward,id=7][CQ:json,data=x]";
    const result = toInboundEvent(groupMessage({ message: cq }), RECEIVED);
    expect(result).toMatchObject({
      ok: true,
      value: {
        message: {
          text: "[图片] [语音] [视频] [文件] 报告.pdf [表情] [聊天记录] [消息]",
          attachments: [
            { kind: "image", url: "https://multimedia.nt.qq.com.cn/a&b", filename: "abc.image" },
            { kind: "voice", url: null, filename: "v.amr" },
            { kind: "video", url: "https://x.test/v.mp4", filename: "https://x.test/v.mp4" },
            { kind: "file", url: null, filename: "报告.pdf" },
          ],
        },
      },
    });
  });

  it("accepts numeric-string ids", ({ expect }) => {
    const result = toInboundEvent(
      groupMessage({ self_id: "10001", user_id: "20002", group_id: "30003", message_id: "7" }),
      RECEIVED,
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        eventId: "onebot:10001:msg:7",
        chat: { key: "onebot:group:30003" },
        message: { addressedToBot: true },
      },
    });
  });

  it("ignores the bot's own messages", ({ expect }) => {
    expect(toInboundEvent(groupMessage({ user_id: SELF }), RECEIVED)).toMatchObject({
      ok: false,
      error: { kind: "ignored" },
    });
    expect(toInboundEvent(groupMessage({ post_type: "message_sent" }), RECEIVED)).toMatchObject({
      ok: false,
      error: { kind: "ignored" },
    });
  });

  it("ignores an anonymous group message: every anonymous member shares one placeholder user_id", ({
    expect,
  }) => {
    // go-cqhttp and its kin report every anonymous member as user 80000000; only `anonymous`
    // tells them apart, and it names no account. Taken as a message, two anonymous members
    // would be one account (one could list and forget the other's items), or, where an
    // implementation gives the real number, an anonymous speaker would be named.
    const anonymous = (id: number, name: string) =>
      groupMessage({
        sub_type: "anonymous",
        user_id: 80000000,
        anonymous: { id, name, flag: `${name}|${id}` },
        sender: { user_id: 80000000, nickname: name, card: "", role: "member" },
      });
    for (const payload of [anonymous(1, "匿名甲"), anonymous(2, "匿名乙")]) {
      expect(toInboundEvent(payload, RECEIVED)).toEqual({
        ok: false,
        error: { kind: "ignored", reason: "an anonymous group message names no account" },
      });
    }
    // An `anonymous` block under another sub_type is just as nameless.
    const disguised = groupMessage({ sub_type: "normal", anonymous: { id: 3, name: "匿名丙", flag: "f" } });
    expect(toInboundEvent(disguised, RECEIVED)).toMatchObject({ ok: false, error: { kind: "ignored" } });
  });

  it("ignores a group system notice and a group sub_type it does not know", ({ expect }) => {
    // sub_type notice is a system line (「管理员已禁止群内匿名聊天」), said by no member.
    for (const sub_type of ["notice", "something_new"]) {
      expect(toInboundEvent(groupMessage({ sub_type }), RECEIVED)).toEqual({
        ok: false,
        error: { kind: "ignored", reason: `group sub_type '${sub_type}' is not a member's message` },
      });
    }
  });

  it("takes a group message of sub_type normal, a missing sub_type and a null anonymous (the control)", ({
    expect,
  }) => {
    const { sub_type: _dropped, ...withoutSubType } = groupMessage();
    for (const payload of [groupMessage(), withoutSubType, groupMessage({ anonymous: null })]) {
      expect(toInboundEvent(payload, RECEIVED)).toMatchObject({
        ok: true,
        value: { chat: { key: "onebot:group:30003" }, sender: { account: "onebot:user:20002" } },
      });
    }
  });

  it.for(["friend", "group", "other", undefined])(
    "takes a private message of sub_type %s as the sender's own private chat, never a group's",
    (sub_type, { expect }) => {
      // sub_type group is a temporary session opened from a group: the sender.group_id it
      // carries names where they met, not where the words were said.
      const payload = privateMessage({
        sub_type,
        group_id: 30003,
        sender: { user_id: 20002, nickname: "小明", group_id: 30003 },
        temp_source: 0,
      });
      expect(toInboundEvent(payload, RECEIVED)).toMatchObject({
        ok: true,
        value: {
          chat: { key: "onebot:private:20002", targetType: "private", targetId: "20002" },
          sender: { account: "onebot:user:20002" },
        },
      });
    },
  );

  it("ignores a discuss message and the bot's own private send, however its user_id is written", ({
    expect,
  }) => {
    // A discuss (讨论组) has several members: taken as private, one would be read another's chat.
    const discuss = privateMessage({ message_type: "discuss", discuss_id: 40004 });
    expect(toInboundEvent(discuss, RECEIVED)).toMatchObject({ ok: false, error: { kind: "ignored" } });
    for (const user_id of [SELF, String(SELF)]) {
      for (const post_type of ["message", "message_sent"]) {
        expect(toInboundEvent(privateMessage({ user_id, post_type }), RECEIVED)).toMatchObject({
          ok: false,
          error: { kind: "ignored" },
        });
      }
    }
  });

  it("ignores message types other than private and group", ({ expect }) => {
    const result = toInboundEvent(groupMessage({ message_type: "guild" }), RECEIVED);
    expect(result).toEqual({
      ok: false,
      error: { kind: "ignored", reason: "message_type 'guild' is not handled" },
    });
  });
});

describe("toInboundEvent: notices", () => {
  it("turns a group recall into message_deleted", ({ expect }) => {
    const payload = notice("group_recall", {
      group_id: 30003,
      user_id: 20002,
      operator_id: 20003,
      message_id: 555,
    });
    expect(toInboundEvent(payload, RECEIVED)).toEqual({
      ok: true,
      value: {
        eventId: "onebot:10001:recall:555",
        transport: "onebot",
        kind: "message_deleted",
        wireType: "notice.group_recall",
        chat: { key: "onebot:group:30003", channel: "onebot", targetType: "group", targetId: "30003" },
        sender: {
          userId: "20002",
          account: "onebot:user:20002",
          displayName: null,
          role: null,
          unionId: null,
          isBot: false,
        },
        message: null,
        deletedMessageId: "555",
        reply: { kind: "none" },
        receivedAt: RECEIVED,
        raw: payload,
      },
    });
  });

  it("turns a friend recall into message_deleted in the private chat", ({ expect }) => {
    const result = toInboundEvent(notice("friend_recall", { user_id: 20002, message_id: 556 }), RECEIVED);
    expect(result).toMatchObject({
      ok: true,
      value: { kind: "message_deleted", chat: { key: "onebot:private:20002" }, deletedMessageId: "556" },
    });
  });

  /** A change of group 30003's members: who (`user`) and who did it (`operator`). */
  const membership = (type: string, subType: string, user: number, operator: number) =>
    notice(type, { sub_type: subType, group_id: 30003, user_id: user, operator_id: operator });

  it("reports the bot joining a group, with the inviter", ({ expect }) => {
    const payload = membership("group_increase", "invite", SELF, 20002);
    expect(toInboundEvent(payload, RECEIVED)).toMatchObject({
      ok: true,
      value: {
        kind: "bot_added",
        eventId: "onebot:10001:group_increase:30003:1700000100",
        chat: { key: "onebot:group:30003" },
        sender: { userId: "20002" },
        reply: { kind: "none" },
      },
    });
  });

  it("ignores other members joining or leaving", ({ expect }) => {
    const joined = membership("group_increase", "approve", 20009, 0);
    const left = membership("group_decrease", "leave", 20009, 20009);
    expect(toInboundEvent(joined, RECEIVED)).toMatchObject({ ok: false, error: { kind: "ignored" } });
    expect(toInboundEvent(left, RECEIVED)).toMatchObject({ ok: false, error: { kind: "ignored" } });
  });

  it("reports the bot being kicked or leaving", ({ expect }) => {
    const kicked = membership("group_decrease", "kick_me", SELF, 20002);
    const left = membership("group_decrease", "leave", SELF, SELF);
    expect(toInboundEvent(kicked, RECEIVED)).toMatchObject({
      ok: true,
      value: { kind: "bot_removed", chat: { key: "onebot:group:30003" }, sender: { userId: "20002" } },
    });
    expect(toInboundEvent(left, RECEIVED)).toMatchObject({
      ok: true,
      value: { kind: "bot_removed", sender: null },
    });
  });

  it("reports a new friend", ({ expect }) => {
    const result = toInboundEvent(notice("friend_add", { user_id: 20002 }), RECEIVED);
    expect(result).toMatchObject({
      ok: true,
      value: {
        kind: "friend_added",
        eventId: "onebot:10001:friend_add:20002:1700000100",
        chat: { key: "onebot:private:20002" },
        sender: { account: "onebot:user:20002" },
      },
    });
  });

  it("ignores other notices", ({ expect }) => {
    const poke = notice("notify", { sub_type: "poke", group_id: 30003, user_id: 20002, target_id: SELF });
    expect(toInboundEvent(poke, RECEIVED)).toEqual({
      ok: false,
      error: { kind: "ignored", reason: "notice_type 'notify' is not handled" },
    });
  });
});

describe("toInboundEvent: ignored and invalid payloads", () => {
  it("ignores meta events and requests with a reason", ({ expect }) => {
    const heartbeat = {
      time: 1_700_000_000,
      self_id: SELF,
      post_type: "meta_event",
      meta_event_type: "heartbeat",
      status: { online: true, good: true },
      interval: 30000,
    };
    const request = {
      time: 1_700_000_000,
      self_id: SELF,
      post_type: "request",
      request_type: "friend",
      user_id: 2,
    };
    expect(toInboundEvent(heartbeat, RECEIVED)).toEqual({
      ok: false,
      error: { kind: "ignored", reason: "meta_event 'heartbeat' is not a chat event" },
    });
    expect(toInboundEvent(request, RECEIVED)).toEqual({
      ok: false,
      error: { kind: "ignored", reason: "request 'friend' is not handled" },
    });
    expect(toInboundEvent({ time: 1, self_id: SELF, post_type: "something_new" }, RECEIVED)).toMatchObject({
      ok: false,
      error: { kind: "ignored" },
    });
  });

  it("rejects a message without user_id, naming the field", ({ expect }) => {
    const { user_id: _, ...payload } = groupMessage();
    const result = toInboundEvent(payload, RECEIVED);
    expect(result).toMatchObject({ ok: false, error: { kind: "invalid" } });
    if (!result.ok) expect(result.error.reason).toContain("user_id");
  });

  it("rejects a group message without group_id", ({ expect }) => {
    const { group_id: _, ...payload } = groupMessage();
    const result = toInboundEvent(payload, RECEIVED);
    expect(result.ok ? "" : result.error.reason).toContain("group_id");
  });

  it("rejects malformed fields and envelopes", ({ expect }) => {
    for (const payload of [
      null,
      "text",
      [],
      {},
      { post_type: "message" }, // no time or self_id
      groupMessage({ message: 42 }),
      groupMessage({ message: [{ data: { text: "x" } }] }), // segment without type
      groupMessage({ message_id: 1.5 }),
      groupMessage({ group_id: "abc" }),
      notice("group_recall", { group_id: 30003, user_id: 20002 }), // no message_id
    ]) {
      expect(toInboundEvent(payload, RECEIVED), JSON.stringify(payload)).toMatchObject({
        ok: false,
        error: { kind: "invalid" },
      });
    }
  });

  it("keeps message text out of rejection reasons", ({ expect }) => {
    const result = toInboundEvent(
      groupMessage({ message: [{ type: "text", data: { text: "秘密" } }], user_id: "x" }),
      RECEIVED,
    );
    expect(result.ok ? "" : result.error.reason).not.toContain("秘密");
  });
});
