import type { ChatKey } from "@src/domain/chat/chat-address";
import type { InboundEvent } from "@src/domain/inbound/inbound-event";
import { maskInboundEvent, maskJson } from "@src/domain/inbound/mask-inbound-event";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

const MSG_ID = "ROBOT1.0_kx6E4A1bX9dJ1J3oZqIUSl6V0o5KjPVe5Yb2Qw8Rt7Uy";
const OPENID = "E4F4AEA33253A2797FB897C4E4D4FAF9";

function event(text: string, transcript = "验证码 483920"): InboundEvent {
  return {
    eventId: "C2C_MESSAGE_CREATE:e1",
    transport: "qq",
    kind: "message",
    wireType: "C2C_MESSAGE_CREATE",
    chat: { key: `qq:private:${OPENID}` as ChatKey, channel: "qq", targetType: "private", targetId: OPENID },
    sender: null,
    message: {
      id: MSG_ID,
      text,
      ts: 1,
      addressedToBot: true,
      attachments: [{ kind: "voice", url: null, filename: null, contentType: null, transcript }],
      quotedMessageId: null,
    },
    deletedMessageId: null,
    reply: { kind: "msg_id", id: MSG_ID },
    receivedAt: 1,
    raw: { id: "C2C_MESSAGE_CREATE:e1", d: { id: MSG_ID, content: text, author: { user_openid: OPENID } } },
  };
}

describe("masking an inbound event", () => {
  it("masks text, transcripts and the payload's text, and keeps every id", ({ expect }) => {
    const masked = maskInboundEvent(event("pwd X7yz!abc"));
    expect(masked.message?.text).toBe(`pwd ${CREDENTIAL_MASK}`);
    expect(masked.message?.attachments[0]?.transcript).toBe(`验证码 ${CREDENTIAL_MASK}`);
    expect(masked.raw).toEqual({
      id: "C2C_MESSAGE_CREATE:e1",
      d: { id: MSG_ID, content: `pwd ${CREDENTIAL_MASK}`, author: { user_openid: OPENID } },
    });
    expect(masked.message?.id).toBe(MSG_ID);
    expect(masked.reply).toEqual({ kind: "msg_id", id: MSG_ID });
  });

  it("leaves an event without secrets equal to the original", ({ expect }) => {
    const plain = event("今天吃什么", "明天见");
    expect(maskInboundEvent(plain)).toEqual(plain);
  });

  it("masks a random token in a text field but not in an id field", ({ expect }) => {
    const token = "9dK2mQ7xLp4vR8sT1wZ6yB3nC5hJ0gFa";
    expect(maskJson({ message_id: token, text: token, list: [token] })).toEqual({
      message_id: token,
      text: CREDENTIAL_MASK,
      list: [CREDENTIAL_MASK],
    });
  });
});
