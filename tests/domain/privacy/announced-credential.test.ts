import { maskInboundEvent } from "@src/domain/inbound/mask-inbound-event";
import { applyCredentialCues, CUE_WINDOW_MS, valueHider } from "@src/domain/privacy/announced-credential";
import { announcesCredential, bareValue } from "@src/domain/privacy/credential-phrases";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";

const T = 1_700_000_000_000;
const say = (sender: string, text: string) => {
  const e = messageEvent({ chat: "qq:group:G1", sender, text });
  return { ...e, raw: { d: { content: `<@!BOT> ${text}`, author: { id: sender } } } };
};

describe("a credential announced in one message and sent in the next", () => {
  it.for([
    "我家wifi密码是",
    "服务器密码：",
    "新的验证码是",
    "密钥为",
    "the wifi password is",
    "api key:",
    "token =",
    "今晚的暗号是",
    "进群口令：",
  ])("reads %j as an announcement", (text, { expect }) => {
    expect(announcesCredential(text)).toBe(true);
  });

  it.for([
    "我忘记密码了",
    "密码是什么",
    "密码是不是错了",
    "密码多少",
    "password is wrong",
    "怎么改密码",
    "密码学是",
    "暗号是啥",
  ])("does not read %j as one", (text, { expect }) => {
    expect(announcesCredential(text)).toBe(false);
  });

  it("takes a message that is one printable token as a bare value", ({ expect }) => {
    expect(bareValue(" Xy12ab34 ")).toBe("Xy12ab34");
    expect(bareValue("“hunter2”")).toBe("hunter2");
    expect(bareValue("好的谢谢")).toBeNull();
    expect(bareValue("is it Xy12ab34")).toBeNull();
    expect(bareValue("xxxx")).toBeNull();
  });

  // The value may be words, numerals or groups, as it may in one message (credential-value-alone.ts).
  it.for([
    ["两只蜗牛在赛跑", "两只蜗牛在赛跑"],
    ["“大熊猫吃竹子”", "大熊猫吃竹子"],
    ["correct horse battery staple", "correct horse battery staple"],
    ["九八七六五四", "九八七六五四"],
    ["73 19 48", "73 19 48"],
    ["龍貓1234", "龍貓1234"],
    ["八个八", "八个八"],
    ["all zeros", "all zeros"],
    ["one one two two", "one one two two"],
  ] as const)("masks %j sent after an announcement", ([text, value], { expect }) => {
    const first = applyCredentialCues(say("U1", "我家wifi密码是"), {}, T);
    const next = applyCredentialCues(say("U1", text), first.cues, T + 1_000);
    expect(next.event.message?.text).toBe(CREDENTIAL_MASK);
    expect(JSON.stringify(next.event.raw)).not.toContain(value);
  });

  // A value given, then corrected in the next message: the corrected value is the password.
  it.for([
    ["刚才打错了，是 Kq7#mv82 ，m不是n", "Kq7#mv82"],
    ["不对 应该是 lanlan0916", "lanlan0916"],
    ["打错了 Yt55@park", "Yt55@park"],
    ["sorry typo, it's Bd9!rr41", "Bd9!rr41"],
    ["不对 首字母大写 Lanlan0916", "Lanlan0916"],
  ] as const)("masks the value in %j after a masked one", ([text, value], { expect }) => {
    const first = applyCredentialCues(maskInboundEvent(say("U1", "wifi密码 Qx81!vv20")), {}, T);
    const next = applyCredentialCues(say("U1", text), first.cues, T + 1_000);
    expect(next.event.message?.text).not.toContain(value);
    expect(JSON.stringify(next.event.raw)).not.toContain(value);
  });

  it.for(["刚才打错了，是明天不是今天", "不对 应该是周五", "打错了 哈哈", "不对 是下周三 下午3点"])(
    "leaves %j after a masked value as written",
    (text, { expect }) => {
      const first = applyCredentialCues(maskInboundEvent(say("U1", "wifi密码 Qx81!vv20")), {}, T);
      expect(applyCredentialCues(say("U1", text), first.cues, T + 1_000).event.message?.text).toBe(text);
    },
  );

  it("reads a correction only from the sender who gave the value, and only right after it", ({ expect }) => {
    const first = applyCredentialCues(maskInboundEvent(say("U1", "wifi密码 Qx81!vv20")), {}, T);
    const other = applyCredentialCues(say("U2", "打错了 Yt55@park"), first.cues, T + 1_000);
    expect(other.event.message?.text).toBe("打错了 Yt55@park");
    const between = applyCredentialCues(say("U1", "今天好热"), first.cues, T + 1_000);
    const late = applyCredentialCues(say("U1", "打错了 Yt55@park"), between.cues, T + 2_000);
    expect(late.event.message?.text).toBe("打错了 Yt55@park");
  });

  it("masks a countersign's words sent after 暗号是", ({ expect }) => {
    const first = applyCredentialCues(say("U1", "今晚的暗号是"), {}, T);
    const next = applyCredentialCues(say("U1", "宝塔镇河妖"), first.cues, T + 1_000);
    expect(next.event.message?.text).toBe(CREDENTIAL_MASK);
  });

  it.for(["算了不告诉你", "我忘了是什么", "你猜猜看", "等我回家再说吧", "ok thanks a lot", "哈哈哈哈"])(
    "leaves %j after an announcement as it was",
    (text, { expect }) => {
      const first = applyCredentialCues(say("U1", "我家wifi密码是"), {}, T);
      const next = applyCredentialCues(say("U1", text), first.cues, T + 1_000);
      expect(next.event.message?.text).toBe(text);
    },
  );

  it("masks the sender's next message when it is the value, in the text and the payload", ({ expect }) => {
    const first = applyCredentialCues(say("U1", "我家wifi密码是"), {}, T);
    expect(first.cues).toEqual({ "qq:user:U1": T });
    // Another member speaking in between neither gets masked nor ends U1's cue.
    const other = applyCredentialCues(say("U2", "Xy12ab34"), first.cues, T + 1_000);
    expect(other.event.message?.text).toBe("Xy12ab34");
    const value = applyCredentialCues(say("U1", "Xy12ab34"), other.cues, T + 2_000);
    expect(value.event.message?.text).toBe(CREDENTIAL_MASK);
    expect(JSON.stringify(value.event.raw)).not.toContain("Xy12ab34");
    expect(JSON.stringify(value.event.raw)).toContain(CREDENTIAL_MASK);
    // The announcement is answered; what is left is the cue that the next message may correct it.
    expect(value.cues).toEqual({ "qq:user:U1|gave": T + 2_000 });
  });

  it("lets any other next message end the cue, and an old cue lapse", ({ expect }) => {
    const first = applyCredentialCues(say("U1", "密码是"), {}, T);
    const chat = applyCredentialCues(say("U1", "算了不说了"), first.cues, T + 1_000);
    expect(chat.cues).toEqual({});
    expect(applyCredentialCues(say("U1", "Xy12ab34"), chat.cues, T + 2_000).event.message?.text).toBe(
      "Xy12ab34",
    );
    const late = applyCredentialCues(say("U1", "Xy12ab34"), first.cues, T + CUE_WINDOW_MS + 1);
    expect(late.event.message?.text).toBe("Xy12ab34");
  });
});

describe("hiding a value where it is stored", () => {
  it("hides every form of it, not a longer word or number that holds it", ({ expect }) => {
    const hide = valueHider("hk7731");
    expect(hide("收到「hk7731」，这是什么？")).toBe("收到「[已隐藏的凭据]」，这是什么？");
    expect(hide("hk7731 hk7731")).toBe("[已隐藏的凭据] [已隐藏的凭据]");
    expect(hide("hk77312 是单号, xhk7731 也是")).toBe("hk77312 是单号, xhk7731 也是");
    expect(valueHider("4 7 1 9")("门禁 4 7 1 9 进")).toBe("门禁 [已隐藏的凭据] 进");
    // As OneBot's raw message escapes it, and as a JSON string escapes it.
    expect(valueHider("a&b[1]c")("x a&amp;b&#91;1&#93;c y")).toBe("x [已隐藏的凭据] y");
    expect(valueHider('pa"ss\\9')('{"t":"pa\\"ss\\\\9"}')).toBe('{"t":"[已隐藏的凭据]"}');
  });
});
