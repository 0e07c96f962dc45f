import { findSecurityAnswers } from "@src/domain/privacy/credential-security-answers";
import { maskCredentials } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { describeAnswers } from "../../support/security-answers";

const values = (text: string) => findSecurityAnswers(text).map((f) => text.slice(f.start, f.end));

// The answer to a security question (QQ's 密保) recovers the account as the password does.
describe("a security question's answer", () => {
  it.for([
    ["QQ密保答案是 王小花", "王小花"],
    ["我的密保问题答案：实验二小", "实验二小"],
    ["密保问题 我的小学 答案 实验二小", "实验二小"],
    ["安全问题的答案是 xiaobai2008 别外传", "xiaobai2008"],
    ["密保答案我设的 大黄", "大黄"],
    ["帮我记一下 密保答案 是 东风小学", "东风小学"],
    ["security answer: Fluffy", "Fluffy"],
    ["the answer to my security question is rover99", "rover99"],
    ["妈 密保那里填 阿福 就行，是咱家猫", "阿福"],
    ["网银的预留问题答案我抄下来了：城东三小", "城东三小"],
    ["安全问题 我最爱吃什么 写 糖醋排骨", "糖醋排骨"],
    ["密保问题 我的绰号 答 chunjuan88", "chunjuan88"],
    ["the memorable word is 'marmalade'", "marmalade"],
    ["我個QQ密保問題答案係 黃美玲，幫我記住", "黃美玲"],
    ["安全問題的答案是 小白2009", "小白2009"],
    ["密保答案忘了怎么办", null],
    ["密保答案：******（已隐藏）", null],
    ["密保答案别设生日和名字 太容易被猜到", null],
    ["设置密保问题后，答案请牢记", null],
    ["我的安全问题答案是一个英文单词加数字", null],
    ["密保答案是什么来着", null],
    ["设置密保问题和答案的时候要认真", null],
    ["security answer is case sensitive", null],
    ["密保答案要填真实的吗", null],
    ["找回密码需要回答密保问题", null],
    ["the answer to my question is in the docs", null],
  ] as const)("reads %j as %j", ([text, value], { expect }) => {
    expect(values(text)).toEqual(value === null ? [] : [value]);
    if (value !== null) expect(maskCredentials(text)).not.toContain(value);
  });
});

// Answers where people put them: on the line after, in a list of questions, before an arrow that
// points at the keyword, after words a space ends; and their near misses in the same words.
const LAID_OUT: Readonly<Record<string, readonly string[]>> = {
  "密保答案 → 王小花": ["王小花"],
  "密保問題\n1. 你嘅出世城市 → 佛山\n2. 你第一隻寵物叫咩 → 豆豆": ["佛山", "豆豆"],
  "安全問題答案 ↓\n\n黃大仙": ["黃大仙"],
  "security questions:\n1. your first pet? Biscuit\n2. your first school? Elmwood": ["Biscuit", "Elmwood"],
  "密保答案->xiaohua88": ["xiaohua88"],
  "密保问的是我奶奶叫啥 填李秀英就对了 别写错": ["李秀英"],
  "security question: mother's maiden name\nanswer: Thornton": ["Thornton"],
  "【阿黄】<- 安全问题答案，括号不要": ["阿黄"],
  "(wangcai2010) ← 密保答案": ["wangcai2010"],
  "steam密保两个\n1. 你的出生城市 → 洛阳\n2. 你的第一辆车 → 捷达": ["洛阳", "捷达"],
  "安全提示问题：\nQ1 你的第一份工作？A：肯德基": ["肯德基"],
  "密保答案 ↓\n\n红烧茄子": ["红烧茄子"],
  "> 你密保答案是什么\n东门菜市场": ["东门菜市场"],
  "预留问题答案是 外婆家的枣树": ["外婆家的枣树"],
  "几个号的密保答案全一样 也是 大眼猫77": ["大眼猫77"],
  "问题：你的偶像是谁 答案写 张国荣": ["张国荣"],
};
const NO_ANSWER_IN = [
  "问题：中国最长的河是哪条 答案写 长江",
  "那个预留问题 我记得填的阳历还是阴历来着",
  "密保答案是小学班主任的姓",
  "密保答案是老家的地址",
  "密保问题有三个\n1. 你的出生城市\n2. 你的第一辆车\n3. 你母亲的名字",
  "游戏的密保设置步骤：\n1. 打开设置 → 账号安全\n2. 点 密保问题 → 修改",
  "密保答案 ↓\n\n忘了 谁记得",
  "> 你密保答案是什么\n我也忘了",
  "密保答案忘了\n明天再说",
];

describeAnswers("a security question's answer, however the message is laid out", LAID_OUT, NO_ANSWER_IN);
