import {
  explicitSensitivity,
  isBarePrivacyMarker,
  stripPrivacyPhrases,
} from "@src/domain/memory/sensitivity";
import { describe, it } from "vitest";
import { PRIVACY_REQUESTS as corpus } from "../../support/privacy-requests";

describe("the labelled privacy-request corpus", () => {
  it("holds at least 200 requests and 200 non-requests of every language, each split and well formed", ({
    expect,
  }) => {
    expect(corpus.filter((c) => c.label === "request").length).toBeGreaterThanOrEqual(200);
    expect(corpus.filter((c) => c.label === "none").length).toBeGreaterThanOrEqual(200);
    for (const lang of ["zh-Hans", "zh-Hant", "en", "mixed"]) {
      expect(corpus.filter((c) => c.lang === lang && c.label === "request").length).toBeGreaterThan(10);
    }
    for (const c of corpus) {
      expect(["request", "none"]).toContain(c.label);
      expect(["dev", "held"]).toContain(c.split);
      expect(["plain", "slang", "typo", "next-message"]).toContain(c.variant);
      expect(c.variant === "next-message").toBe(c.previous !== undefined || c.next !== undefined);
    }
    expect(corpus.filter((c) => c.split === "held").length).toBeGreaterThan(150);
  });
});

describe("privacy requests in people's own words", () => {
  it.for([
    ["不要外传哦，我在准备考研", "secret_like"],
    ["這件事你知道就好，我爸住院了", "secret_like"],
    ["別告訴別人，我在準備考研", "secret_like"],
    ["唔好同人講，我辭職咗", "secret_like"],
    ["别告苏别人，我在找工作", "secret_like"],
    ["这个报密哈，我怀孕了", "secret_like"],
    ["between you and me, I'm quitting next month", "secret_like"],
    ["keep it secert pls, im pregnant", "secret_like"],
    ["这个keep secret哈，我下周面试", "secret_like"],
    ["我们决定下周发布，就我俩知道", "secret_like"],
    ["别在别的群说这个，我被房东赶出来了", "private"],
    ["please keep this private, I have depression", "private"],
    ["别\u200b告诉别人，我挂科了", "secret_like"],
    ["嘘，我离婚了", "secret_like"],
    ["偷偷告诉你，我喜欢小王", "secret_like"],
    ["我住院了，低调点别说", "secret_like"],
    ["我怀二胎了，先低调", "secret_like"],
    ["我老板要裁员，你先别吭声", "secret_like"],
    ["我要辞职了，在群里别提这事", "private"],
    ["我和女朋友分手了，群里就别提了", "secret_like"],
    ["don't mention my surgery to anyone", "private"],
    ["千万别跟小美说我喜欢她 求求了", "secret_like"],
    ["别让老王知道我在背后吐槽他", "secret_like"],
    ["我欠了网贷两万 别让我家里人知道", "secret_like"],
    ["bs 这事就咱群里几个知道 出去别讲", "secret_like"],
    ["别bb出去啊 我游戏号是买的", "secret_like"],
    ["不要截图不要转发 我跟宿舍的闹掰了", "secret_like"],
    ["这件事你们知道就好 不要跟其他群讲", "secret_like"],
    ["我户口是假的 这事烂肚子里", "secret_like"],
    ["群友们帮我保个密", "secret_like"],
    ["keep this in here pls 我跟前任复合了", "private"],
    ["dont tell the other groups but im moving to shanghai", "secret_like"],
  ] as const)("%s → %s", ([text, level], { expect }) => {
    expect(explicitSensitivity(text)).toBe(level);
  });

  it.for([
    "别告诉我答案，我想自己做",
    "这事大家都知道",
    "私聊我",
    "小明说“别告诉别人”，结果他自己到处说",
    "他让我别告诉别人，我觉得没必要",
    "你会保密吗？",
    "随便说，不用保密",
    "公司要求签保密协议",
    "我私下里练了很久才敢上台",
    "我最讨厌别人把我的事到处说",
    "don't tell me you forgot again",
    "can you keep a secret?",
    "just between us and the other team, the score was 3-2",
    "she said 'don't tell anyone' and then posted it online",
    "这个private repo怎么设置",
    "他很低调",
    "嘘声一片，比赛太烂了",
    "偷偷摸摸的干嘛呢",
    "群里别刷屏了",
    "别提了，今天堵车两小时",
    "小声点，宝宝睡了",
    "别告诉我结局，我还没看",
    "别跟自己说不可能",
    "不要转发谣言，先查证",
    "别让我知道是谁干的",
    "出去别忘了关灯",
  ])("is no request: %s", (text, { expect }) => {
    expect(explicitSensitivity(text)).toBeNull();
  });

  it("cuts the request out and keeps every other word as it was written", ({ expect }) => {
    expect(stripPrivacyPhrases("我怕狗，别告诉别人")).toBe("我怕狗");
    expect(stripPrivacyPhrases("這件事你知道就好，我爸住院了")).toBe("我爸住院了");
    expect(stripPrivacyPhrases("我在準備考研，別告訴別人喔")).toBe("我在準備考研");
    expect(stripPrivacyPhrases("不要外传哦，我在准备考研")).toBe("我在准备考研");
    expect(stripPrivacyPhrases("ｗｉｆｉ坏了，别告苏别人")).toBe("ｗｉｆｉ坏了");
    expect(stripPrivacyPhrases("between you and me, I'm quitting next month")).toBe(
      "I'm quitting next month",
    );
  });

  it.for([
    ["这个别外传", true],
    ["這個別外傳", true],
    ["刚才那句别说出去哈", true],
    ["don't tell anyone yet", true],
    ["keep that between us", true],
    ["别外传 pls", true],
    ["我下个月要离职了，这个别外传", false],
    ["私聊我", false],
    ["哈哈好的", false],
  ] as const)("a message that is only a marker: %s → %s", ([text, bare], { expect }) => {
    expect(isBarePrivacyMarker(text)).toBe(bare);
  });
});

describe("reading a long text", () => {
  it("stays linear with a finding or a typo every few characters and no punctuation", ({ expect }) => {
    const units = [
      "别外传",
      "别往外说",
      "secert ",
      "告苏",
      "唔好",
      "谁要是传到",
      "仅限本群 ",
      "don't remember ",
      "好 ",
      "出了这个门谁也不知道 ",
    ];
    for (const unit of units) {
      const text = unit.repeat(Math.ceil(100_000 / unit.length));
      const started = performance.now();
      explicitSensitivity(text);
      expect(performance.now() - started, unit).toBeLessThan(3_000);
    }
  });
});
