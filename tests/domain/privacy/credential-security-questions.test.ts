// A personal question of the kind security questions ask, and the answer given after it
// (docs/decisions/0950-a-personal-question-and-its-answer.md): these wordings were written for
// this test before the rule, with their near misses in the same words.
import { describeAnswers } from "../../support/security-answers";

const ANSWERED: Readonly<Record<string, readonly string[]>> = {
  "安全问题是我第一只狗的名字：旺财": ["旺财"],
  "银行预留问题 我爸的生日 —— 0712": ["0712"],
  "密保 → 我出生的城市：绵阳": ["绵阳"],
  "security question: your favourite teacher? Mr Chen": ["Mr Chen"],
  "问我宠物叫啥 我填的 球球": ["球球"],
  "登录验证问我的母校，我写的是 育才中学": ["育才中学"],
  "秘保答案 小黄 记住了啊": ["小黄"],
  "冻结了 要回答问题 你外婆叫什么？张桂兰": ["张桂兰"],
  "密保那个最难忘的日子我填的 1998年3月2日": ["1998年3月2日"],
  "1. 母亲姓名？陈玉兰\n2. 出生城市？宜宾": ["陈玉兰", "宜宾"],
  "mibao答案 huanghuang 小写": ["huanghuang"],
  "驗證問題：你最好嘅朋友叫咩 —— 阿Ken": ["阿Ken"],
};

const NOT_ANSWERED = [
  "验证问我母亲的名字 我忘了填的啥",
  "安全问题设成你最喜欢的电影就行 别用生日",
  "问题：世界上最高的山？答案：珠穆朗玛峰",
  "我老家是河北沧州的 有老乡吗",
  "系统问我最喜欢的颜色 我都不知道选啥",
  "1. 姓名？\n2. 电话？",
  "你妈的名字？问这干啥",
  "我出生的城市：绵阳，现在在成都上班",
  "密保问题：你出生的城市？（答案别告诉任何人）",
];

describeAnswers("a personal question and the answer after it", ANSWERED, NOT_ANSWERED);
