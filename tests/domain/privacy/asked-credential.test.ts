// A password asked for in a group and answered by another member with the value alone: "wifi密码
// 多少？", then "dx2024wifi". Neither message holds a keyword with its value
// (docs/decisions/0820-a-value-given-in-answer.md).
import { applyCredentialCues, type CredentialCues } from "@src/domain/privacy/announced-credential";
import { asksForCredential } from "@src/domain/privacy/asked-credential";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";

const T = 1_700_000_000_000;

/** Each message of a group conversation as the chat object stores it, cues carried along. */
function conversation(lines: readonly (readonly [string, string])[], gap = 1_000): string[] {
  let cues: CredentialCues = {};
  return lines.map(([sender, text], i) => {
    const out = applyCredentialCues(messageEvent({ chat: "qq:group:G1", sender, text }), cues, T + i * gap);
    cues = out.cues;
    return out.event.message?.text ?? "";
  });
}

const ASKING = [
  "wifi密码多少？",
  "群主，wifi密码是啥",
  "有人知道会议室的wifi密码吗",
  "密码？",
  "游戏号密码是什么来着",
  "门禁码多少",
  "what's the wifi password?",
  "wifi pw?",
  // shorthand, Cantonese, an order to send it, and a lock
  "wifi mm?",
  "个wifi密码系咩呀",
  "屋企wifi密码几多",
  "屋企wifi密碼幾多呀",
  "验证码发我一下",
  "你那个游戏号密码给我，帮你做日常",
  "提取码呢？",
  "路由器后台密码谁知道",
  "车锁多少来着",
  "does anyone have the password for the shared drive?",
  // remembering it, sending it again, a lock's number, whether there is one
  "上次那个保险柜密码你还记得不",
  "车库密码我忘了… 你上回开过 记得吗",
  "wifi密码再发我一遍",
  "那个网盘密码能不能再给我一次",
  "小区门口那个密码锁多少号来着",
  "閘口密碼幾多號",
  "这个会有密码吗",
  "你们那边wifi有密码没",
  // looking it up for someone, offering to send it, a bare 呢, and dialects' "how much" and "know"
  "帮我看下手机上刚来的验证码",
  "验证码发你手机上了 帮我看一下",
  "取件码我发你",
  "PIN呢",
  "wifi密码侬晓得伐",
  "那把锁的密码是么子",
  "你屋头wifi密码是好多嘛",
  "铁门密码几号",
];
const NOT_ASKING = [
  "密码忘了怎么办",
  "wifi好慢啊",
  "多少钱？",
  "你知道密码学吗",
  "password reset 在哪",
  "宽带wifi多少钱一个月",
  "门锁了多少次了",
  "你们wifi叫啥名字",
  "wifi名是什么",
  "密码别告诉我，我自己猜",
  "你记得不 上次那家店",
  "这个会议室几号楼",
  "这题答案是啥",
  "wifi好多人在连 卡死了",
  "帮我看下这个包好看吗",
];

/** Replies to "wifi密码多少？" with the value in them, words around it or not. */
const ANSWERS = [
  "dx2024wifi",
  "12345678",
  "就 nb2333qaq 啊",
  "是Xy12ab34",
  "“hk8899@home”",
  "是 Tp88home 注意大小写",
  "访客的是 guest2024，员工的问行政",
  "就那个 hk2024x 没改过",
  "5528 别外传",
  "it's Blue7sky! (capital B)",
  "物业发过 是 *7041",
  // digits typed apart, and a keypad's star after them
  "9 3 1 5 7 0",
  "7712* 按完记得按星号",
  "#5519# 按完等绿灯",
  "21-36-14 转慢点",
];
/** Replies with no value: words, and runs that are a size or a version. */
const NO_ANSWERS = [
  "问前台",
  "8位数字",
  "不知道",
  "ok",
  "哈哈哈",
  "2.4G那个",
  "same",
  "私聊你了",
  "贴在门口 自己看",
  "v2.3 的版本",
  "12/25 那天改的",
  "3-5 个字母",
  // a year, a height, an age: a number that counts something
  "1998年那会儿",
  "身高有192厘米呢",
  "他今年102岁了",
];

/** The reply as stored after "wifi密码多少？" from another member. */
const replied = (answer: string) =>
  conversation([
    ["U1", "wifi密码多少？"],
    ["U2", answer],
  ])[1];

describe("a credential asked for, and answered by another member", () => {
  it("reads the questions that ask for one, and no other", ({ expect }) => {
    expect(ASKING.filter((t) => !asksForCredential(t))).toEqual([]);
    expect(NOT_ASKING.filter(asksForCredential)).toEqual([]);
  });

  it("masks the value in each answer, and leaves the replies that hold none", ({ expect }) => {
    for (const answer of ANSWERS) {
      expect(replied(answer), answer).toContain(CREDENTIAL_MASK);
      expect(replied(answer), answer).not.toMatch(
        /[0-9]{4}|9 3 1 5|21-36|Xy12|nb2333|hk8899|Tp88|guest2024|hk2024|Blue7/,
      );
    }
    expect(NO_ANSWERS.map(replied)).toEqual(NO_ANSWERS);
  });

  it("masks an answer after a little chatter, within a few messages", ({ expect }) => {
    const said = conversation([
      ["U1", "有人知道会议室的wifi密码吗"],
      ["U3", "我也想知道"],
      ["U2", "mt2025room"],
    ]);
    expect(said).toEqual(["有人知道会议室的wifi密码吗", "我也想知道", CREDENTIAL_MASK]);
  });

  it("leaves a token alone with no question before it, long after one, or once the answer came", ({
    expect,
  }) => {
    expect(conversation([["U2", "CA1234"]])).toEqual(["CA1234"]);
    const late = conversation(
      [
        ["U1", "wifi密码多少？"],
        ["U2", "abcd1234"],
      ],
      11 * 60_000,
    );
    expect(late[1]).toBe("abcd1234");
    const many = conversation([
      ["U1", "wifi密码多少？"],
      ["U2", "在吗"],
      ["U3", "吃了吗"],
      ["U4", "晚上开黑"],
      ["U5", "来来来"],
      ["U6", "好的"],
      ["U2", "kd2024x9"],
    ]);
    expect(many[6]).toBe("kd2024x9");
    const answered = conversation([
      ["U1", "wifi密码多少？"],
      ["U2", "dx2024wifi"],
      ["U3", "CA1234"],
    ]);
    expect(answered).toEqual(["wifi密码多少？", CREDENTIAL_MASK, "CA1234"]);
  });
});

/** Each reply as stored after `question` from another member, and the asker's own follow-up. */
const afterQuestion = (question: string, reply: string, from = "U2") =>
  conversation([
    ["U1", question],
    [from, reply],
  ])[1];

// A countersign, an answer or a password given in Chinese words (asked-in-words.ts).
describe("a secret asked for and given in words", () => {
  const GIVEN = [
    ["房间密码？", "天王盖地虎", "天王盖地虎"],
    ["今晚的暗号是啥", "你说 宝塔镇河妖 就行", "宝塔镇河妖"],
    ["进群答案是啥", "答案填 我爱学习 四个字", "我爱学习"],
    ["口令多少来着", "是 春眠不觉晓", "春眠不觉晓"],
    ["保险柜密码你还记得不", "蓝色海洋啊", "蓝色海洋"],
    // traditional characters, Cantonese, and a question in English
    ["房間密碼？", "天王蓋地虎", "天王蓋地虎"],
    ["今晚暗號係咩呀", "你講 寶塔鎮河妖", "寶塔鎮河妖"],
    ["what's the room password?", "春眠不觉晓", "春眠不觉晓"],
  ] as const;
  const NOT_GIVEN = [
    "不知道",
    "不清楚",
    "问群主",
    "我也想知道",
    "没有密码",
    "你自己问房东啦 我都不记得",
    "等一下",
    "好的",
    "哈哈哈",
    "群公告里有",
    "晚上开黑不",
    "刘桂芳啊 数学老师 你连她都忘了",
    "做梦吧你",
    "没门儿",
    // sentences about something else
    "奥斯卡最佳女配角也被提名了",
    "说到徐克，那也是一位了不起的人",
    "他出生在日本兵库县",
    "我喜欢喜剧和爱情片",
  ];

  it("masks the phrase that answers, and leaves what answers nothing", ({ expect }) => {
    for (const [question, reply, phrase] of GIVEN) {
      expect(afterQuestion(question, reply), reply).not.toContain(phrase);
      expect(afterQuestion(question, reply), reply).toContain(CREDENTIAL_MASK);
    }
    expect(NOT_GIVEN.map((reply) => afterQuestion("房间密码？", reply))).toEqual(NOT_GIVEN);
  });

  it("reads no words after a code's question, from the asker, or past the next two messages", ({
    expect,
  }) => {
    expect(afterQuestion("验证码多少", "天王盖地虎")).toBe("天王盖地虎");
    expect(afterQuestion("房间密码？", "天王盖地虎", "U1")).toBe("天王盖地虎");
    const late = conversation([
      ["U1", "房间密码？"],
      ["U2", "在吗"],
      ["U3", "我也不知道"],
      ["U4", "天王盖地虎"],
    ]);
    expect(late[3]).toBe("天王盖地虎");
  });
});
