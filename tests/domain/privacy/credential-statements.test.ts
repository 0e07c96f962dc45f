import { looksLikeCredential, neverStored } from "@src/domain/memory/sensitivity";
import { statesACredential } from "@src/domain/privacy/credential-statements";
import { describe, it } from "vitest";

// Memory and summaries are written by the model in its own words: what a password is, however
// its value reads — a question, a phrase ending in 的, a description — is never kept.
const REFUSED = [
  "用户家的wifi密码是作业写完了吗老铁",
  "用户和表弟约定的暗号为：你猜我猜不猜呀",
  "用户和表弟约定的暗号是你猜我猜不猜呀",
  "用户电脑的开机密码是他自己都记不住的那句话：我又忘了带钥匙",
  "用户的QQ密码改成了女儿小名加生日",
  "用户的路由器密码是今天吃了吗兄弟",
  "群里约定的暗号是xiaobao520",
  "用户的密碼現在是好好學習天天向上的",
  "用户的门禁密码设的是他家门牌号倒过来",
  "用户把支付宝支付密码设成了结婚纪念日",
  "王芳的手机锁屏密码：女儿的名字拼音",
  "用户说保险柜口令就是老家村名",
  "The user's wifi password is the dog's name twice",
  "Her locker passcode was set to her mother's birthday",
  "The user's PIN is his wedding date backwards",
  "用户的验证码是刚才短信里那个",
  "用户说密码我记得是女儿名字加生日",
];

// Talk about passwords that says no value, and names that hold a keyword.
const KEPT = [
  "用户忘了QQ密码，正在找回",
  "用户在学密码学",
  "用户觉得设置复杂密码很麻烦",
  "用户问wifi密码是多少",
  "用户的密码是否安全还不确定",
  "用户喜欢看《达芬奇密码》",
  "用户想给路由器设个更强的密码",
  "用户用密码管理器保存所有账号",
  "The user forgot his password again",
  "The user asked what the wifi password is",
  "用户的王者号被盗了，密码改了三次还是被顶号",
  "银行说取款密码不能设成连号或者生日",
  "用户说验证码是6位的",
  "The user's password is too weak for the bank",
  "用户喜欢爬山",
  "用户下周去上海出差",
];

describe("a stored statement that says what a secret is", () => {
  it("is refused by memory's check, whatever its value reads like", ({ expect }) => {
    for (const text of REFUSED)
      expect([statesACredential(text), looksLikeCredential(text), neverStored(text)], text).toEqual([
        true,
        true,
        true,
      ]);
  });

  it("is told from talk about passwords that gives nothing", ({ expect }) => {
    for (const text of KEPT)
      expect([statesACredential(text), neverStored(text)], text).toEqual([false, false]);
  });
});
