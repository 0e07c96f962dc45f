import type { AccountKey, ChatKey } from "@src/domain/chat/chat-address";
import type { InboundEvent, InboundSender } from "@src/domain/inbound/inbound-event";
import { maskInboundEvent, maskJson } from "@src/domain/inbound/mask-inbound-event";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

const SELF = "10000";
const AT_BOT = { type: "at", data: { qq: SELF } };
const text = (t: string) => ({ type: "text", data: { text: t } });
const PEM_BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7";

function sender(displayName: string | null): InboundSender {
  return {
    userId: "20001",
    account: "onebot:user:20001" as AccountKey,
    displayName,
    role: "member",
    unionId: null,
    isBot: false,
  };
}

/** A OneBot group message as the adapter reads it: `text` is the normalized text, @bot dropped. */
function oneBotEvent(input: {
  text: string;
  segments: unknown[];
  rawMessage: string;
  card?: string;
}): InboundEvent {
  return {
    eventId: "onebot:10000:msg:77",
    transport: "onebot",
    kind: "message",
    wireType: "message.group",
    chat: { key: "onebot:group:400" as ChatKey, channel: "onebot", targetType: "group", targetId: "400" },
    sender: sender(input.card ?? "小红"),
    message: {
      id: "77",
      text: input.text,
      ts: 1,
      addressedToBot: true,
      attachments: [],
      quotedMessageId: null,
    },
    deletedMessageId: null,
    reply: { kind: "none" },
    receivedAt: 1,
    raw: {
      post_type: "message",
      message_type: "group",
      message_id: 77,
      group_id: 400,
      user_id: 20001,
      message: input.segments,
      raw_message: input.rawMessage,
      sender: { user_id: 20001, nickname: "小红", card: input.card ?? "", role: "member" },
    },
  };
}

describe("the raw payload is masked as well as the normalized text", () => {
  it("masks a password whose value sits in the segment after an @ of the bot", ({ expect }) => {
    const masked = maskInboundEvent(
      oneBotEvent({
        text: "我的 steam 密码是 gaben4ever",
        segments: [text("我的 steam 密码是 "), AT_BOT, text(" gaben4ever")],
        rawMessage: `我的 steam 密码是 [CQ:at,qq=${SELF}] gaben4ever`,
      }),
    );
    expect(masked.message?.text).toBe(`我的 steam 密码是 ${CREDENTIAL_MASK}`);
    const raw = masked.raw as Record<string, unknown>;
    // Each segment keeps its place and type; only the value is hidden, the mention stays.
    expect(raw.message).toEqual([text("我的 steam 密码是 "), AT_BOT, text(` ${CREDENTIAL_MASK}`)]);
    expect(raw.raw_message).toBe(`我的 steam 密码是 [CQ:at,qq=${SELF}] ${CREDENTIAL_MASK}`);
    expect(JSON.stringify(masked)).not.toContain("gaben4ever");
  });

  it("masks both halves of a private key block cut by an @ of the bot", ({ expect }) => {
    const masked = maskInboundEvent(
      oneBotEvent({
        text: `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\n-----END PRIVATE KEY-----`,
        segments: [
          text("-----BEGIN PRIVATE KEY-----\n"),
          AT_BOT,
          text(`${PEM_BODY}\n-----END PRIVATE KEY-----`),
        ],
        rawMessage: `-----BEGIN PRIVATE KEY-----\n[CQ:at,qq=${SELF}]${PEM_BODY}\n-----END PRIVATE KEY-----`,
      }),
    );
    const raw = masked.raw as Record<string, unknown>;
    expect(raw.message).toEqual([text(CREDENTIAL_MASK), AT_BOT, text(CREDENTIAL_MASK)]);
    expect(JSON.stringify(masked)).not.toContain("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw");
  });

  it("masks a QQ password whose value follows the bot's mention markup", ({ expect }) => {
    expect(maskJson({ d: { content: "邮箱的密码是 <@BOT1> hunter2hunter2 " } })).toEqual({
      d: { content: `邮箱的密码是 <@BOT1> ${CREDENTIAL_MASK} ` },
    });
    expect(maskJson({ d: { content: '密码是 <qqbot-at-user id="BOT1" /> hunter2hunter2' } })).toEqual({
      d: { content: `密码是 <qqbot-at-user id="BOT1" /> ${CREDENTIAL_MASK}` },
    });
  });

  it("masks each piece of a value that a mention cuts in two, and keeps the mention", ({ expect }) => {
    // A keyless token: each half is too short to pass for one, the text without the mention is.
    expect(maskJson({ content: "9dK2mQ7xLp4v<@!BOT1>R8sT1wZ6yB3nC5hJ0gFa" })).toEqual({
      content: `${CREDENTIAL_MASK}<@!BOT1>${CREDENTIAL_MASK}`,
    });
    expect(maskJson({ message: [text("密码是 Ab12"), AT_BOT, text("cd34 记一下")] })).toEqual({
      message: [text(`密码是 ${CREDENTIAL_MASK}`), AT_BOT, text(`${CREDENTIAL_MASK} 记一下`)],
    });
  });

  it("leaves mentions, segments and ids of a message without secrets as they were", ({ expect }) => {
    const plain = oneBotEvent({
      text: "今天天气不错",
      segments: [AT_BOT, text(" 今天天气不错")],
      rawMessage: `[CQ:at,qq=${SELF}] 今天天气不错`,
    });
    expect(maskInboundEvent(plain)).toEqual(plain);
    const qq = { d: { id: "ROBOT1.0_x", content: "<@BOT1> 密码怎么改 <@!U2> 帮我看看" } };
    expect(maskJson(qq)).toEqual(qq);
  });

  it("masks a payload that was masked before to the same payload", ({ expect }) => {
    const once = maskJson({
      message: [text("密码是 Ab12"), AT_BOT, text("cd34"), text("-----BEGIN PRIVATE KEY-----\n"), AT_BOT],
      raw_message: `我的 steam 密码是 [CQ:at,qq=${SELF}] gaben4ever`,
      content: "9dK2mQ7xLp4v<@!BOT1>R8sT1wZ6yB3nC5hJ0gFa",
    });
    expect(maskJson(once)).toEqual(once);
  });
});

describe("the sender's display name is masked", () => {
  it("masks a password in a OneBot card, in the sender and in the payload", ({ expect }) => {
    const masked = maskInboundEvent(
      oneBotEvent({
        text: "今天天气不错",
        segments: [AT_BOT, text(" 今天天气不错")],
        rawMessage: `[CQ:at,qq=${SELF}] 今天天气不错`,
        card: "密码:zhangsan1990",
      }),
    );
    expect(masked.sender?.displayName).toBe(`密码:${CREDENTIAL_MASK}`);
    expect(masked.sender?.userId).toBe("20001");
    expect(masked.sender?.account).toBe("onebot:user:20001");
    expect(JSON.stringify(masked)).not.toContain("zhangsan1990");
  });

  it("masks a password in a QQ username and keeps an ordinary name", ({ expect }) => {
    const event = oneBotEvent({ text: "你好", segments: [text("你好")], rawMessage: "你好" });
    const qq = maskInboundEvent({ ...event, transport: "qq", sender: sender("我的QQ密码改成了qwer1234") });
    expect(qq.sender?.displayName).toBe(`我的QQ密码改成了${CREDENTIAL_MASK}`);
    expect(maskInboundEvent({ ...event, sender: sender("小明") }).sender?.displayName).toBe("小明");
    expect(maskInboundEvent({ ...event, sender: sender(null) }).sender?.displayName).toBeNull();
    expect(maskInboundEvent({ ...event, sender: null }).sender).toBeNull();
  });
});

describe("a value only the trained reader of values reads", () => {
  // Wordings no rule reads (tests/domain/privacy/credential-reader.test.ts,
  // credential-han-reader.test.ts): a value of letters, and one in Chinese words.
  it.for([
    ["Bj_2019cls", "班级网盘我设的是 Bj_2019cls 大家别乱删"],
    ["黄焖鸡米饭", "解压就用 黄焖鸡米饭 这五个字"],
  ] as const)(
    "masks %s, which only a trained reader reads, in the text and every copy in the payload; ids stay",
    ([value, said], { expect }) => {
      const masked = maskInboundEvent(
        oneBotEvent({
          text: said,
          segments: [AT_BOT, text(` ${said}`)],
          rawMessage: `[CQ:at,qq=${SELF}] ${said}`,
        }),
      );
      const stored = JSON.stringify(masked);
      expect(stored).not.toContain(value);
      expect(masked.message?.text).toBe(said.replace(value, CREDENTIAL_MASK));
      expect(masked.raw).toMatchObject({
        message_id: 77,
        raw_message: `[CQ:at,qq=${SELF}] ${said.replace(value, CREDENTIAL_MASK)}`,
        message: [AT_BOT, text(` ${said.replace(value, CREDENTIAL_MASK)}`)],
      });
    },
  );

  it("masks it in OneBot's raw_message as CQ codes escape it", ({ expect }) => {
    const said = "班级网盘我设的是 Bj[2019]cls 大家别乱删";
    const escaped = said.replace("[", "&#91;").replace("]", "&#93;");
    const masked = maskInboundEvent(
      oneBotEvent({ text: said, segments: [text(said)], rawMessage: `[CQ:at,qq=${SELF}] ${escaped}` }),
    );
    expect(JSON.stringify(masked)).not.toMatch(/Bj|2019cls/);
    expect(masked.raw).toMatchObject({
      raw_message: `[CQ:at,qq=${SELF}] 班级网盘我设的是 ${CREDENTIAL_MASK} 大家别乱删`,
    });
  });

  it("masks a value read only in the voice transcript in the text that repeats it", ({ expect }) => {
    const event = oneBotEvent({ text: "[语音] 我设的 Bj_2019cls", segments: [], rawMessage: "" });
    const voice = {
      kind: "voice",
      url: null,
      filename: null,
      contentType: null,
      transcript: "我设的 Bj_2019cls",
    } as const;
    const masked = maskInboundEvent({
      ...event,
      message: event.message ? { ...event.message, attachments: [voice] } : null,
    });
    expect(JSON.stringify(masked)).not.toContain("Bj_2019cls");
    expect(masked.message?.text).toBe(`[语音] 我设的 ${CREDENTIAL_MASK}`);
  });

  it("masks it in QQ's content, which escapes it as HTML, and in a quoted message the payload carries", ({
    expect,
  }) => {
    const said = "班级网盘我设的是 Bj<2019cls 大家别乱删";
    const escaped = said.replace("<", "&lt;");
    const event = oneBotEvent({ text: said, segments: [], rawMessage: "" });
    const asQq = maskInboundEvent({ ...event, raw: { d: { content: escaped } } });
    expect(JSON.stringify(asQq)).not.toMatch(/Bj|2019cls/);
    // A quote of an earlier message: only the payload holds it, and the reader reads it there.
    const quoting = maskInboundEvent({
      ...oneBotEvent({ text: "这是啥意思", segments: [], rawMessage: "" }),
      raw: {
        d: { content: "这是啥意思", message_type: 103, msg_elements: [{ msg_idx: "REF==", content: said }] },
      },
    });
    expect(JSON.stringify(quoting.raw)).not.toMatch(/Bj|2019cls/);
    expect(quoting.raw).toMatchObject({ d: { content: "这是啥意思", msg_elements: [{ msg_idx: "REF==" }] } });
  });

  it("masks a value in Chinese words in a quoted message only the payload carries", ({ expect }) => {
    const quoting = maskInboundEvent({
      ...oneBotEvent({ text: "这是啥意思", segments: [], rawMessage: "" }),
      raw: {
        d: {
          content: "这是啥意思",
          msg_elements: [{ msg_idx: "REF==", content: "解压就用 黄焖鸡米饭 这五个字" }],
        },
      },
    });
    expect(JSON.stringify(quoting.raw)).not.toContain("黄焖鸡米饭");
  });
});
