import { READ_BEFORE, sweptPage, valuesHider, valuesReadIn } from "@src/domain/history/log-sweep";
import { senderText } from "@src/domain/history/message-record";
import { maskSensitiveDataInMessage } from "@src/domain/privacy/credentials";
import { chatIndexText } from "@src/domain/text/chat-search-tokens";
import { describe, it } from "vitest";
import { CREDENTIAL_SAMPLES } from "../../support/credential-corpus";
import { loggedBefore } from "../../support/logged-before";

let n = 0;
/** The next row of a log, as it was stored before a detector read its wording. */
const stored = (chatKey: string, text: string, direction: "in" | "out" = "in") =>
  loggedBefore(chatKey, ++n, text, direction);

const HAN_LINE = "压缩包打开要输 酸辣土豆丝 别外传";
const HAN_VALUE = "酸辣土豆丝";

describe("a message log read again by today's detectors", () => {
  it("masks each labelled sample as a message arriving today is masked, no more and no less", ({
    expect,
  }) => {
    const samples = CREDENTIAL_SAMPLES.filter((s) => !s.messages);
    expect(samples.length).toBeGreaterThan(200);
    let masked = 0;
    for (const [i, s] of samples.entries()) {
      const row = stored(`qq:private:S${i}`, s.text);
      const [swept] = sweptPage([], [row]);
      const today = maskSensitiveDataInMessage(s.text);
      expect(swept?.text ?? row.text, s.text).toBe(today);
      if (today === s.text) continue;
      masked += 1;
      if (s.secret && !today.includes(s.secret)) {
        expect(swept?.rawJson, s.text).not.toContain(s.secret);
        expect(swept?.tokens, s.text).toBe(chatIndexText(row.chatKey, senderText(row.nick, today)));
      }
    }
    expect(masked).toBeGreaterThan(100);
  });

  it("hides a value in the same chat's rows that repeat it without its words, and not in another chat's", ({
    expect,
  }) => {
    expect(valuesReadIn(HAN_LINE)).toEqual([HAN_VALUE]);
    const said = stored("qq:private:A", HAN_LINE);
    const echo = stored("qq:private:A", `好的，记住了：${HAN_VALUE}`, "out");
    const plain = stored("qq:private:A", "今晚吃什么");
    const elsewhere = stored("qq:group:B", `${HAN_VALUE}真好吃`);
    const swept = sweptPage([], [said, echo, plain, elsewhere]);
    expect(swept.map((r) => r.messageId)).toEqual([said.messageId, echo.messageId]);
    for (const r of swept) expect(JSON.stringify(r)).not.toContain(HAN_VALUE);
    expect(swept[1]?.text).toBe("好的，记住了：[已隐藏的凭据]");
  });

  it("reads the rows before a page for their values and rewrites none of them", ({ expect }) => {
    const said = stored("qq:private:A", HAN_LINE);
    const filler = Array.from({ length: READ_BEFORE - 1 }, (_, i) => stored("qq:private:A", `闲聊第${i}句`));
    const echo = stored("qq:private:A", `你说的是 ${HAN_VALUE} 对吧`, "out");
    const swept = sweptPage([said, ...filler], [echo]);
    expect(swept.map((r) => r.messageId)).toEqual([echo.messageId]);
    expect(swept[0]?.rawJson).not.toContain(HAN_VALUE);
  });

  it("hides a value in the rows that follow it closely, not before it nor far after it", ({ expect }) => {
    const early = stored("qq:private:A", `${HAN_VALUE}？`);
    const said = stored("qq:private:A", HAN_LINE);
    const filler = Array.from({ length: READ_BEFORE }, (_, i) => stored("qq:private:A", `闲聊第${i}句`));
    const late = stored("qq:private:A", `${HAN_VALUE}？`);
    const swept = sweptPage([], [early, said, ...filler, late]);
    expect(swept.map((r) => r.messageId)).toEqual([said.messageId]);
  });

  it("is idempotent: a swept page reads as clean", ({ expect }) => {
    const page = [
      stored("qq:private:A", HAN_LINE),
      stored("qq:private:A", `好的：${HAN_VALUE}`, "out"),
      stored("qq:private:A", "wifi密码是 Qz7!kd92x 别告诉别人"),
      stored("qq:private:A", "我的手机号 13812345678"),
    ];
    const once = sweptPage([], page);
    expect(once).toHaveLength(4);
    const again = page.map((r) => once.find((s) => s.messageId === r.messageId) ?? r);
    expect(sweptPage([], again)).toEqual([]);
    for (const r of once) expect(valuesReadIn(r.text)).toEqual([]);
  });

  it("reads a quoted message that only the payload holds, as an arriving event's is read", ({ expect }) => {
    // A QQ quote of an earlier message: its words are in the payload alone, not the row's text.
    const quoting = {
      ...stored("qq:group:Q", "这是啥意思"),
      rawJson: JSON.stringify({
        d: {
          content: "这是啥意思",
          msg_elements: [{ msg_idx: "REF==", content: `解压就用 ${HAN_VALUE} 这五个字` }],
        },
      }),
    };
    const echo = stored("qq:group:Q", `就是 ${HAN_VALUE} 啊`, "out");
    const swept = sweptPage([], [quoting, echo]);
    expect(swept.map((r) => r.messageId)).toEqual([quoting.messageId, echo.messageId]);
    for (const r of swept) expect(JSON.stringify(r)).not.toContain(HAN_VALUE);
    expect(swept[0]?.text).toBe("这是啥意思");
    expect(JSON.parse(swept[0]?.rawJson ?? "{}")).toMatchObject({
      d: { msg_elements: [{ msg_idx: "REF==" }] },
    });
  });

  it("leaves an ordinary row as it was stored, a payload of other spacing included", ({ expect }) => {
    const row = {
      ...stored("qq:group:G", "周末去爬山吗 带上水"),
      rawJson: '{ "content" : "周末去爬山吗 带上水" }',
    };
    const ordinary = [
      "明天开会改到三点",
      "这个链接打不开 https://example.com/a",
      "我考了98分",
      "老地方见",
    ].map((t) => stored("qq:group:G", t));
    expect(sweptPage([], [row, ...ordinary])).toEqual([]);
  });
});

describe("valuesHider", () => {
  it("hides each value as typed, CQ-escaped and JSON-escaped, and never inside a longer word or number", ({
    expect,
  }) => {
    const hide = valuesHider(["hk7731", "a[1]b", '引号"值']);
    expect(hide("码是hk7731。")).toBe("码是[已隐藏的凭据]。");
    expect(hide("编号hk77312")).toBe("编号hk77312");
    expect(hide("[CQ:text]a&#91;1&#93;b")).toBe("[CQ:text][已隐藏的凭据]");
    expect(hide('{"t":"引号\\"值"}')).toBe('{"t":"[已隐藏的凭据]"}');
  });

  it("with no values changes nothing", ({ expect }) => {
    expect(valuesHider([" ", ""])("任何文字 hk7731")).toBe("任何文字 hk7731");
  });
});
