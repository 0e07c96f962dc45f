import { valueHider } from "@src/domain/privacy/announced-credential";
import {
  hideInJson,
  maskNamedInOrder,
  maskNamedValue,
  namesValueBefore,
  valueNamedLater,
  valueSentAlone,
  valueToName,
} from "@src/domain/privacy/named-afterwards";
import { describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";

const sent = (text: string, addressedToBot = false) => {
  const e = messageEvent({ chat: "qq:group:G1", sender: "U1", text, addressedToBot });
  return { ...e, raw: { d: { content: text, author: { id: "U1" } } } };
};

describe("a value sent alone and named a secret afterwards", () => {
  it("holds a message that is nothing but a value with no Chinese, with a digit or of six characters, and no other", ({
    expect,
  }) => {
    const held = [
      "Lx20240915",
      "🐱catcat0812",
      "tiantian520",
      "8 4 6 2 1 9",
      "“mima2024”",
      "correct horse battery 9",
      "woaichixigua",
      "🌙moonlight",
      "dawei@qq",
    ];
    const kept = [
      "哈哈哈哈",
      "随便聊聊",
      "第2条历史消息",
      "龍貓1234",
      "hello",
      "nice",
      "good night",
      "see you tomorrow",
      "https://b23.tv/Ab12Cd",
      "www.bilibili.com",
      "/weather",
      ".jrrp",
      "#help",
      "Thanks!",
      "Agreed.",
      "what??",
      "“春眠不觉晓”",
      "红烧肉",
      "好的谢谢",
      "在吗",
      "晚上吃什么",
      "ok",
      "[已隐藏的凭据]",
      "明天见 8点",
    ];
    expect(held.filter((t) => valueToName(sent(t)) === null)).toEqual([]);
    expect(kept.filter((t) => valueToName(sent(t)) !== null)).toEqual([]);
    // Said to the bot, its turn is due at once: nothing waits for a naming. Its value is still
    // read, for a naming to mask what was stored of it.
    expect(valueToName(sent("Lx20240915", true))).toBeNull();
    expect(held.filter((t) => valueSentAlone(t) === null)).toEqual([]);
    expect(kept.filter((t) => valueSentAlone(t) !== null)).toEqual([]);
  });

  it("reads a few words that name what the value before was", ({ expect }) => {
    const naming = [
      "↑家里wifi密码",
      "上面是我QQ密码 别记",
      "楼上是wifi密码",
      "這串係屋企wifi",
      "wifi的",
      "刚那个是门禁码",
      "密码哈 别外传",
      "取件码",
      "今晚的暗號",
      "上面系我張卡嘅PIN",
      "that's the wifi password",
      "^ router pw",
      "保险柜的，记一下",
      "进群答案",
      "验证码 别告诉别人",
      // More than a naming, still one: a value taken for a secret by mistake costs a token.
      "密码太简单了",
      "密码改成这个了",
      "这是密码不是邮箱 我网易云的",
      "短信码 给你 快输",
      "密保问题答案，最喜欢的菜那个",
      "爱奇艺会员号的密码 大家一起用",
      // A security question's answer recovers the account as the password does (decision 0920).
      "刚才那个是我的密保",
      "上面是安全问题的答案",
      "that's my security answer",
      "^ mum's maiden name (bank)",
    ] as const;
    expect(naming.filter((t) => !namesValueBefore(t))).toEqual([]);
  });

  it("reads no question, denial, talk about a password or message with a value of its own as a naming", ({
    expect,
  }) => {
    const talk = [
      "密码忘了",
      "密码不是这个",
      "wifi名字是这个 密码问前台",
      "腾讯会议号 没设密码 直接进",
      "密码多少来着",
      "wifi密码？",
      "wifi密码呢",
      "这个不是密码哈",
      "不是wifi密码 是订单号",
      "wifi密码是",
      "这是订单号",
      "wifi名字",
      "密码等下发你",
      "wifi密码发群里了",
      "what's the wifi password",
      "wifi密码 Qx81!vv20",
      "下周一开会的时候记得把会议室的wifi密码贴在门口哈 别忘了",
      "密保问题是啥来着",
      "security question?",
    ];
    expect(talk.filter((t) => namesValueBefore(t))).toEqual([]);
  });

  it("masks the held value everywhere in its event when the next message names it, and only then", ({
    expect,
  }) => {
    const masked = maskNamedValue(sent("Lx20240915"), "↑家里wifi密码");
    expect(masked?.message?.text).toBe("[已隐藏的凭据]");
    expect(JSON.stringify(masked)).not.toContain("Lx20240915");
    expect(maskNamedValue(sent("Lx20240915"), "这是订单号")).toBeNull();
    expect(maskNamedValue(sent("明天见 8点"), "wifi密码")).toBeNull();
  });

  it("masks, in a run of history, a value its sender named within the wait, past others' messages", ({
    expect,
  }) => {
    const at = (sender: string, text: string, ts: number) =>
      messageEvent({ chat: "qq:group:G1", sender, text, ts, addressedToBot: false });
    const texts = (events: ReturnType<typeof at>[]) => maskNamedInOrder(events).map((e) => e.message?.text);
    expect(texts([at("A", "Lx20240915", 0), at("B", "收到", 1_000), at("A", "wifi的", 2_000)])).toEqual([
      "[已隐藏的凭据]",
      "收到",
      "wifi的",
    ]);
    // Named by someone else, or too late: as said.
    expect(texts([at("A", "Lx20240915", 0), at("B", "wifi的", 1_000)])[0]).toBe("Lx20240915");
    expect(texts([at("A", "Lx20240915", 0), at("A", "wifi的", 10 * 60_000)])[0]).toBe("Lx20240915");
  });

  it("masks, in a run of history, a value said to the bot and named afterwards too", ({ expect }) => {
    const to = (text: string, ts: number, addressedToBot: boolean) =>
      messageEvent({ chat: "qq:private:A", sender: "A", text, ts, addressedToBot });
    const out = maskNamedInOrder([to("xiaomao1999", 0, true), to("这是我家wifi密码", 5_000, true)]);
    expect(out.map((e) => e.message?.text)).toEqual(["[已隐藏的凭据]", "这是我家wifi密码"]);
  });
});

describe("Chinese words sent alone and named afterwards", () => {
  it("are never held, but read as a value when the naming points back, says whose it is or how to keep it", ({
    expect,
  }) => {
    const named = (value: string, naming: string) =>
      valueNamedLater(value, naming) !== null && namesValueBefore(naming);
    expect(valueToName(sent("山高水长"))).toBeNull();
    const taken = [
      ["山高水长", "刚那个是进群的口令 别外传"],
      ["红烧肉", "密保问题答案，最喜欢的菜那个"],
      ["天王盖地虎", "今晚进门的暗号，别外传"],
      ["春眠不觉晓", "↑读书会暗号"],
      // Traditional characters, and Cantonese pointing back.
      ["山高水長", "剛那個是進群的口令 別外傳"],
      ["芝麻開門", "呢個係今晚嘅暗號"],
    ] as const;
    // A bare name of a secret after chat asks for one; a question, a laugh or a reply is chat.
    const left = [
      ["晚上吃火锅", "wifi密码"],
      ["我在楼下", "门禁"],
      ["在食堂", "验证码"],
      ["周五聚餐", "进群答案"],
      ["好的呀", "这是wifi密码"],
      ["哈哈哈哈", "刚那个是暗号"],
      ["你吃了吗", "上面是密码"],
      ["明天见", "wifi密码多少"],
      // A sentence about someone, then a password of the sender's own, masked where it came in.
      ["我喜欢爬山", "我的邮箱密码是 [已隐藏的凭据]"],
      ["你先走", "刚那个是门禁密码"],
    ] as const;
    expect(taken.filter(([v, n]) => !named(v, n))).toEqual([]);
    expect(left.filter(([v, n]) => named(v, n))).toEqual([]);
  });
});

describe("hiding a value named afterwards in what was stored", () => {
  it("hides it in each string of a JSON payload, and in the text of one cut short", ({ expect }) => {
    const hide = valueHider("Qz88pp");
    const json = JSON.stringify({
      raw_message: "Qz88pp",
      time: 1796621735,
      message: [{ data: { text: "Qz88pp" } }],
    });
    expect(JSON.parse(hideInJson(json, hide))).toEqual({
      raw_message: "[已隐藏的凭据]",
      time: 1796621735,
      message: [{ data: { text: "[已隐藏的凭据]" } }],
    });
    const cut = json.slice(0, 30);
    expect(cut).toContain("Qz88pp");
    expect(hideInJson(cut, hide)).not.toContain("Qz88pp");
  });
});
