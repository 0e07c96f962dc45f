// docs/invariants.md#credentials-are-never-stored-in-memory: values people write as words,
// numerals, quotes, several tokens or further on in the sentence, or describe or read out
// ("八个八", "五 二 零 一", "大写A 小写b 然后123", a dial's turns) or typed as a keypad takes
// them ("6029#"), said in a private chat, in a
// group, after "我家wifi密码是" and as a request to remember, are kept nowhere: not in D1, its
// search index or the chat object, and not by dreaming. So are values in wordings only the
// trained readers of values read (src/domain/privacy/credential-reader.ts and, for values in
// Chinese words, credential-han-reader.ts).

import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { beforeAll, describe, it } from "vitest";
import {
  enableIdentityAndDreaming,
  logged,
  personAndGroup,
  REFUSED,
  sample,
  say,
} from "../support/credential-paths";
import { c2cBody, groupAtBody } from "../support/qq-events";
import { settled, storedAnywhere } from "../support/stored-anywhere";

beforeAll(enableIdentityAndDreaming);

/** Once both chats have settled and dreamed: how many of each chat's logged messages are masked. */
async function afterDreaming(chatKey: string, groupKey: string, privateMessages: number) {
  await settled(chatKey, { dreamed: true });
  await settled(groupKey);
  const masked = (rows: string[]) => rows.filter((r) => r.includes(CREDENTIAL_MASK)).length;
  return {
    privateMasked: masked(await logged(chatKey, privateMessages)),
    groupMasked: masked(await logged(groupKey, 2)),
  };
}

/** One way of writing a credential, taken through every path: said where, and looked for after. */
type Wording = {
  /** The person's and the group's id prefix. */
  prefix: string;
  /** Four messages each, with the two requests below six turns: dreaming (every second turn) is not left waiting. */
  inPrivate: readonly string[];
  inGroup: readonly [string, string];
  /** Asked to be remembered: in words, then as the command. */
  toRemember: readonly [string, string];
  /** How many of the private messages carry a value, which the log masks. */
  maskedInPrivate: number;
  needles: readonly string[];
};

/**
 * Values in Chinese words, each with its value: four said in private, two in the group, two asked
 * to be remembered. Written for this test; none is read by a rule
 * (tests/domain/privacy/credential-han-reader.test.ts).
 */
const HAN_READER_LINES = [
  ["压缩包打开要输 冬瓜排骨汤 别外传", "冬瓜排骨汤"],
  ["进群验证填 奥利给冲鸭 就行", "奥利给冲鸭"],
  ["解压就用 黄焖鸡米饭 这五个字", "黄焖鸡米饭"],
  ["路由器我重置了，现在连的时候输 大黄蜂变形记 就行", "大黄蜂变形记"],
  ["大家进群验证填 星期五万岁 就行", "星期五万岁"],
  ["团建照片的压缩包 解压就用 海底捞火锅 这五个字", "海底捞火锅"],
  ["记住：压缩包打开要输 酸辣土豆丝 别外传", "酸辣土豆丝"],
  ["/remember 进群验证填 咖喱鸡块饭 就行", "咖喱鸡块饭"],
] as const;

const WORDINGS: readonly (readonly [string, Wording])[] = [
  [
    "said as words, numerals, quotes, several tokens or further on in a sentence",
    {
      prefix: "S",
      inPrivate: [
        sample("小狗汪汪"),
        sample("九八七六五四"),
        [sample("correct horse battery staple"), sample("Qwe!2345")].join("\n"),
        sample("#2580"),
      ],
      inGroup: [sample("Lily@0520"), sample("7f3c9a1b2e4d5f60718293a4b5c6d7e8")],
      toRemember: [`记住：${sample("zhangsan0520")}`, `/remember ${sample("Luck#777")}`],
      maskedInPrivate: 4,
      needles: [
        "小狗汪汪",
        "九八七六五四",
        "horse battery",
        "Qwe!2345",
        "2580",
        "Lily@0520",
        "7f3c9a1b2e4d5f60718293a4b5c6d7e8",
        "zhangsan0520",
        "Luck#777",
      ],
    },
  ],
  [
    "described or read out instead of typed, or announced before it is said",
    {
      prefix: "D",
      inPrivate: [
        "wifi密码是八个八",
        "门禁你按 五 二 零 一 三 一 四 然后井号就开了",
        "我家wifi密码是",
        "俩六俩八",
      ],
      inGroup: ["bike lock: three nines then a zero", "电脑开机密码 大写A 小写b 然后123"],
      toRemember: ["记住：我的支付密码是六个6", "/remember 保险箱 左三圈到十二 右两圈到三十五 再左转到七"],
      // The announcement "我家wifi密码是" carries none: the message after it does.
      maskedInPrivate: 3,
      needles: [
        "八个八",
        "五 二 零 一 三 一 四",
        "俩六俩八",
        "three nines",
        "大写A 小写b",
        "六个6",
        "右两圈到三十五",
      ],
    },
  ],
  [
    "in wordings no rule reads, left to the trained reader of values",
    {
      prefix: "R",
      // Written for this test; none is read by a rule (tests/domain/privacy/credential-reader.test.ts).
      inPrivate: [
        "咱家那个智能锁临时码 Qw81zz 用完记得删",
        "那个 excel 加密了 打开要 Sh2024$$",
        "我那个小号 进去是 Xh_0625aa",
        "监控摄像头的后台 我设的 Cam#8899ip",
      ],
      inGroup: ["NAS 的 web 界面 我设的 Nn#4040nas", "班级网盘我设的是 Bj_2019cls 大家别乱删"],
      toRemember: ["记住：我家保险柜的电子锁设的 Vz93!kq", "/remember 压缩包解压用 Zq2026yy"],
      maskedInPrivate: 4,
      needles: [
        "Qw81zz",
        "Sh2024$$",
        "Xh_0625aa",
        "Cam#8899ip",
        "Nn#4040nas",
        "Bj_2019cls",
        "Vz93!kq",
        "Zq2026yy",
      ],
    },
  ],
  [
    "typed as a keypad takes it: digits closed by a hash",
    {
      prefix: "K",
      // Written for this test; the rule's own lines are in tests/domain/privacy/credential-lock-values.test.ts.
      inPrivate: [
        "老家院门 6029# 别按错",
        "公司侧门刷不了卡就按 3318#0927",
        "the lobby panel wants *7745# now",
        "地下室那道门 8802# 开",
      ],
      inGroup: ["快递放储物间了 门是 5516#", "晚上回来按 9043# 进楼"],
      toRemember: ["记住：健身房后门 4187#", "/remember 仓库 2264#31"],
      maskedInPrivate: 4,
      needles: ["6029#", "3318#0927", "7745#", "8802#", "5516#", "9043#", "4187#", "2264#31"],
    },
  ],
  [
    "a security question's answer, in Chinese words or in letters",
    {
      prefix: "Q",
      // Written for this test; the rule's own lines are in tests/domain/privacy/credential-security-answers.test.ts.
      inPrivate: [
        "我QQ的密保答案是 李翠花",
        "密保问题 我最喜欢的老师 答案 周建国",
        "安全问题答案：raccoon77",
        "my security answer is Biscuit42",
      ],
      inGroup: ["帮我记一下 密保答案 是 东风小学", "the answer to my security question is Pumpkin09"],
      toRemember: ["记住：我的密保答案是 赵铁柱", "/remember 安全问题答案 是 河西路小学"],
      maskedInPrivate: 4,
      needles: [
        "李翠花",
        "周建国",
        "raccoon77",
        "Biscuit42",
        "东风小学",
        "Pumpkin09",
        "赵铁柱",
        "河西路小学",
      ],
    },
  ],
  [
    "a security question's answer laid out over lines, pointed at, or after a personal question",
    {
      prefix: "L",
      // Written for this test; the rules' own lines are in tests/domain/privacy/credential-security-answers.test.ts.
      inPrivate: [
        "原神号密保三个\n1. 你的出生城市 → 开封\n2. 你的第一辆车 → 雅迪",
        "密保答案 ↓\n\n蓝莓山药",
        "(大橘2016) ← 密保答案",
        "问题是「你最爱吃的菜」 答案填 酸菜鱼",
      ],
      inGroup: ["几个号的密保答案都一样 也是 白桦林88", "安全提示问题：\nQ1 你的偶像？A：邓丽君"],
      toRemember: [
        "记住：密保问的是我外公叫啥 填陈福生就行 别写错",
        "/remember 问题：你的小学 答案写 红旗路小学",
      ],
      maskedInPrivate: 4,
      needles: [
        "开封",
        "雅迪",
        "蓝莓山药",
        "大橘2016",
        "酸菜鱼",
        "白桦林88",
        "邓丽君",
        "陈福生",
        "红旗路小学",
      ],
    },
  ],
  [
    "a password in Chinese words, after a connector, as a field, first or typed",
    {
      prefix: "H",
      // Written for this test; the rule's own lines are in tests/domain/privacy/credential-han-phrases.test.ts.
      inPrivate: [
        "家里路由器密码是 芒果布丁",
        "网盘小号 密码 东坡肘子 你登一下",
        "「雨后彩虹」就是新的门禁口令",
        "相册加密了 输入 青椒土豆丝 就能看",
      ],
      inGroup: ["今晚集合暗号：秋刀鱼的滋味", "车库门禁口令 月半弯 别说错"],
      toRemember: ["记住：我的保险箱密码是 海绵宝宝", "/remember 电脑开机密码 桂花糕"],
      maskedInPrivate: 4,
      needles: [
        "芒果布丁",
        "东坡肘子",
        "雨后彩虹",
        "青椒土豆丝",
        "秋刀鱼的滋味",
        "月半弯",
        "海绵宝宝",
        "桂花糕",
      ],
    },
  ],
  [
    "in Chinese words no rule reads, left to the reader of values in Chinese words",
    {
      prefix: "W",
      inPrivate: HAN_READER_LINES.slice(0, 4).map(([said]) => said),
      inGroup: [HAN_READER_LINES[4][0], HAN_READER_LINES[5][0]],
      toRemember: [HAN_READER_LINES[6][0], HAN_READER_LINES[7][0]],
      maskedInPrivate: 4,
      needles: HAN_READER_LINES.map(([, value]) => value),
    },
  ],
];

describe("a credential said as words, further on in a sentence, described or read out is stored nowhere", () => {
  it.for(WORDINGS)(
    "%s: in a private chat, in a group, asked to be remembered, and after dreaming",
    { timeout: 90_000 },
    async ([, w], { expect }) => {
      const { user, chatKey, group, groupKey } = personAndGroup(w.prefix);
      for (const said of w.inPrivate) await say(c2cBody({ user, text: said }), chatKey);
      for (const said of w.inGroup) await say(groupAtBody({ group, member: user, text: said }), groupKey);
      for (const asked of w.toRemember)
        expect((await say(c2cBody({ user, text: asked }), chatKey)).replies[0]?.text, asked).toBe(REFUSED);

      // The paths ran: each message is in the log, and each that carries a value is masked.
      const logs = await afterDreaming(chatKey, groupKey, w.inPrivate.length + 2);
      expect(logs.privateMasked).toBeGreaterThanOrEqual(w.maskedInPrivate);
      expect(logs.groupMasked).toBe(2);
      expect(await storedAnywhere(w.needles)).toEqual([]);
    },
  );
});
