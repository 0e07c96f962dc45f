// The trained reader of values in Chinese words (src/domain/privacy/credential-han-reader.ts): it
// masks values no rule reads, and leaves ordinary Chinese that sets a phrase apart the way a value
// is — a group's name, a catchphrase, a title — alone, almost always even a phrase it learned as a
// password. Its measured rates are in `npm run eval -- credentials` and `npm run privacy:train`;
// the lines below were written for this test and are in no set it learned from.

import { hanValueCandidates, readHanCredentialValues } from "@src/domain/privacy/credential-han-reader";
import {
  CREDENTIAL_MASK,
  findCredentials,
  findSensitiveDataInMessage,
  maskSensitiveDataInMessage,
} from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { HAN_READ_SECRETS } from "../../support/han-read-secrets";

/** Values in Chinese words that none of the rules reads, each with the value the reader masks. */
const UNRULED = [
  ["压缩包打开要输 冬瓜排骨汤 别外传", "冬瓜排骨汤"],
  ["进群验证填 奥利给冲鸭 就行", "奥利给冲鸭"],
  ["解压就用 黄焖鸡米饭 这五个字", "黄焖鸡米饭"],
  ["路由器我重置了，现在连的时候输 大黄蜂变形记 就行", "大黄蜂变形记"],
  ["门口那个密码锁我设的 芝麻糊 三个字拼音首字母 zmh", "芝麻糊"],
  ["/remember 进群验证填 咖喱鸡块饭 就行", "咖喱鸡块饭"],
] as const;

/** Ordinary messages that set a Chinese phrase apart after 是, 叫, 改成, 输 or in quotes. */
const ORDINARY = [
  "我们群的名字改成 摸鱼小分队 了",
  "我的网名叫 今天也要加油鸭",
  "这首歌叫 月亮代表我的心，我爸最爱听",
  "我女儿的名字叫 王小雨 下个月满三岁",
  "我的座右铭：宁静致远",
  "你输 老干妈 搜一下就有",
  "密码我改了，但是不告诉你",
  "我们班的口号是 永不言败 每次跑操都要喊",
  "今天语文课学了 红豆生南国，老师让背下来",
  "搜一下 柠檬不酸 这家店，评价还挺好",
  "我家wifi名字叫 大扫除好累 哈哈 邻居都笑了",
  "新店的名字定了 叫 兔子跳跳糖 卖甜品的",
  "答案是 星星点灯 我猜对了！",
  "这次团建的主题是 打工人的春天",
  "别外传啊，我下个月要跳槽去腾讯了",
] as const;

const NUMERALS = /^[零〇一二三四五六七八九十百千万两俩幺]+$/u;

/** Where a phrase is said as itself: a catchphrase, a song, a group's name, a theme, a quote, a nickname. */
const FRAMES = [
  "他的口头禅是 X 笑死",
  "这首歌叫 X，我爸最爱听",
  "我们群名改成 X 了",
  "今天的主题是「X」",
  "X 这句话说得真好",
  "我的网名叫 X",
] as const;

describe("the trained reader of values in Chinese words", () => {
  it.for(UNRULED)("masks the value of %j, which no rule reads", ([said, value], { expect }) => {
    expect(findCredentials(said)).toEqual([]);
    expect(findSensitiveDataInMessage(said).map((f) => f.rule)).toEqual(["han-reader"]);
    expect(maskSensitiveDataInMessage(said)).toBe(said.replace(value, CREDENTIAL_MASK));
  });

  // Written after the reader was trained, as people also write: traditional characters, a typo
  // in the words around the value (外穿 for 外传, 验正 for 验证).
  it.for([
    ["壓縮包打開要輸 冬瓜排骨湯 別外傳", "冬瓜排骨湯"],
    ["進群驗證填 奧利給衝鴨 就行", "奧利給衝鴨"],
    ["/remember 進群驗證填 咖喱雞塊飯 就行", "咖喱雞塊飯"],
    ["压缩包打开要输 冬瓜排骨汤 别外穿", "冬瓜排骨汤"],
    ["进群验正填 奥利给冲鸭 就行", "奥利给冲鸭"],
  ] as const)(
    "masks the value of %j, in traditional characters or among a typo",
    ([said, value], { expect }) => {
      expect(maskSensitiveDataInMessage(said)).toBe(said.replace(value, CREDENTIAL_MASK));
    },
  );

  it.for(ORDINARY)("leaves %j as it is", (said, { expect }) => {
    expect(maskSensitiveDataInMessage(said)).toBe(said);
  });

  // A reader of words keeps something of the values it learned: "天王盖地虎", the countersign of
  // six read lines, reads as one even as a catchphrase (docs/decisions/0970-a-reader-of-chinese-word-values.md).
  // One frame in a thousand at most; a reader weighted otherwise masked one in fifty
  // (docs/experiments/0720-a-reader-of-chinese-word-values.md).
  it("leaves a phrase it learned as a password alone where the phrase is said as itself", ({ expect }) => {
    // Numerals read out ("六六八八二零") are a code by their shape, as digits are: not a phrase.
    const phrases = HAN_READ_SECRETS.filter((s) => !NUMERALS.test(s));
    expect(phrases.length).toBeGreaterThan(300);
    const said = phrases.flatMap((secret) => FRAMES.map((frame) => frame.replace("X", secret)));
    const masked = said.filter((t) => maskSensitiveDataInMessage(t) !== t);
    expect(masked.length, masked.join("\n")).toBeLessThanOrEqual(said.length / 1000);
  });

  it("reads the stretches between spaces and punctuation, and the rest of one after a word that hands a value over", ({
    expect,
  }) => {
    const text = "门禁密码就是开门见山，别外传";
    const read = hanValueCandidates(text).map((c) => text.slice(c.start, c.end));
    expect(read).toEqual(["门禁密码就是开门见山", "开门见山", "别外传"]);
  });

  it("reads no text without two Han characters, and no document", ({ expect }) => {
    expect(hanValueCandidates("my password is hunter2")).toEqual([]);
    expect(hanValueCandidates("好")).toEqual([]);
    expect(hanValueCandidates(`密码是 冬瓜排骨汤 ${"很长的文档内容。".repeat(80)}`)).toEqual([]);
  });

  it("leaves what a rule already found to the rule", ({ expect }) => {
    const said = "压缩包打开要输 冬瓜排骨汤 别外传";
    const start = said.indexOf("冬瓜");
    expect(readHanCredentialValues(said, [])).toEqual([{ start, end: start + 5 }]);
    expect(readHanCredentialValues(said, [{ start, end: start + 2 }])).toEqual([]);
  });

  it("reads a value after /remember as it reads it without: a command's name is not what is said", ({
    expect,
  }) => {
    for (const [said, value] of UNRULED) {
      const asked = `/remember ${said.replace(/^\/remember /u, "")}`;
      expect(maskSensitiveDataInMessage(asked), asked).toBe(asked.replace(value, CREDENTIAL_MASK));
    }
  });

  it("reads no command whose arguments name what the bot gave out", ({ expect }) => {
    expect(readHanCredentialValues("/follow 进群验证填 咖喱鸡块饭 就行", [])).toEqual([]);
    expect(readHanCredentialValues("/remember 进群验证填 咖喱鸡块饭 就行", [])).not.toEqual([]);
  });
});
