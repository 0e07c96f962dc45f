// The reader of values in Chinese words reads each sentence of a message of several as if it were
// said alone (src/domain/privacy/credential-han-reader.ts): an ordinary sentence before the value
// drowned what the words around it say, and the reader learned from messages of one sentence
// (docs/decisions/1000-a-value-read-in-its-own-sentence.md). The lines below were written for this
// test and are in no set it learned from.

import { CREDENTIAL_MASK, maskSensitiveDataInMessage } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { HAN_READ_LINES, HAN_READ_SECRETS } from "../../support/han-read-secrets";

/** A value in Chinese words after something else said first, each with the value. */
const AFTER_A_SENTENCE = [
  ["今天大家约了周六聚餐。压缩包打开要输 冬瓜排骨汤 别外传", "冬瓜排骨汤"],
  ["刚开完会，累死了。解压就用 黄焖鸡米饭 这五个字", "黄焖鸡米饭"],
  ["好久不见啊\n路由器我重置了，现在连的时候输 大黄蜂变形记 就行", "大黄蜂变形记"],
  ["周末去哪玩都行！进群验证填 奥利给冲鸭 就行", "奥利给冲鸭"],
  ["收到收到。门口那个密码锁我设的 芝麻糊 三个字拼音首字母 zmh", "芝麻糊"],
  ["今天大家约了周六聚餐。小王说压缩包打开要输 酸辣土豆丝 别外传。", "酸辣土豆丝"],
] as const;

/** Ordinary messages of several sentences, some setting a phrase apart. */
const ORDINARY = [
  "今天好热。我们群的名字改成 摸鱼小分队 了",
  "我爸最爱听老歌。这首歌叫 月亮代表我的心",
  "刚下班！你输 老干妈 搜一下就有",
  "跑操好累。我们班的口号是 永不言败 每次都要喊",
  "猜谜游戏结束了。答案是 星星点灯 我猜对了！",
  "周五团建。这次的主题是 打工人的春天\n大家记得带水",
  "别外传啊。我下个月要跳槽去腾讯了",
  "密码我改了。但是不告诉你",
  "晚上吃什么？火锅还是烧烤？",
  "他的网名叫 今天也要加油鸭。笑死我了",
  "对了，我们群的名字改成 摸鱼小分队 了",
  "话说，这首歌叫 月亮代表我的心",
  "哈哈，他的网名叫 今天也要加油鸭",
  "嗯，我们班的口号是 永不言败",
] as const;

/** Where a phrase is said as itself, after something else said first. */
const FRAMES = [
  "好久没聊了。他的口头禅是 X 笑死",
  "周末快乐！我们群名改成 X 了",
  "哈哈\nX 这句话说得真好",
  "对了，他的口头禅是 X 笑死",
  "话说，我们群名改成 X 了",
] as const;

describe("the reader of values in Chinese words, a sentence at a time", () => {
  // Each line as it must be stored: the value masked, or an ordinary line as it is.
  const stored: [string, string][] = [
    ...AFTER_A_SENTENCE.map(([said, value]): [string, string] => [
      said,
      said.replace(value, CREDENTIAL_MASK),
    ]),
    ...ORDINARY.map((said): [string, string] => [said, said]),
  ];
  it.for(stored)("stores %j as %j", ([said, masked], { expect }) => {
    expect(maskSensitiveDataInMessage(said)).toBe(masked);
  });

  it("leaves a phrase it learned as a password alone where it is said as itself after another sentence", ({
    expect,
  }) => {
    const phrases = HAN_READ_SECRETS.filter((s) => !/^[零〇一二三四五六七八九十百千万两俩幺]+$/u.test(s));
    const said = phrases.flatMap((secret) => FRAMES.map((frame) => frame.replace("X", secret)));
    const masked = said.filter((t) => maskSensitiveDataInMessage(t) !== t);
    expect(masked.length, masked.join("\n")).toBeLessThanOrEqual(said.length / 1000);
  });

  // A lead-in and a comma drowned the value's words as a sentence did (experiment 0740): of these
  // lines, masked alone, 5, 11 and 8 were kept after these lead-ins before the lead-in was cut off.
  it.for(["对了，", "另外，", "哦对，"])("masks after %j what it masks alone", (lead, { expect }) => {
    const alone = HAN_READ_LINES.filter((l) => !maskSensitiveDataInMessage(l.text).includes(l.secret));
    expect(alone.length).toBeGreaterThan(400);
    const kept = alone.filter((l) => maskSensitiveDataInMessage(lead + l.text).includes(l.secret));
    expect(kept.map((l) => l.text)).toEqual([]);
  });
});
