import { findSecurityAnswers } from "@src/domain/privacy/credential-security-answers";
import { maskCredentials } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

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
