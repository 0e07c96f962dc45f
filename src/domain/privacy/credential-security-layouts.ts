/**
 * Security answers laid out over lines or pointed at
 * (docs/decisions/0920-security-answers-laid-out.md): a list of questions with their answers
 * after a keyword ("steam密保\n1. 你的出生城市 → 洛阳"), the answer alone on the line after
 * "密保答案 ↓" or after a quoted "你密保答案是什么", and an answer with an arrow to its keyword
 * ("(小黑) ← 密保答案"). A list's question must ask about someone ("你的…", "…？"), so that a
 * menu path ("打开设置 → 账号安全") is no answer.
 */
import type { PhraseMatch } from "./credential-phrases";
import {
  answerSpans,
  KEYWORD_ZH,
  OPEN_QUOTE,
  SECURITY_QUESTION,
  TOPIC_ZH,
  VALUE,
} from "./credential-security-words";

const CLOSE_QUOTE = `["'”’」』】)）]?`;
/** What may follow the answer on its line: closing marks and a full stop or two. */
const LINE_END = String.raw`${CLOSE_QUOTE}[ \t。.!！~]*(?=\n|$)`;
const SECURITY = new RegExp(SECURITY_QUESTION, "iu");

/** "1. 你的出生城市 → 洛阳", "Q1 你的第一份工作？A：肯德基", "问题2 你父亲的名字？王建军". */
const LIST_LINE = new RegExp(
  String.raw`^[ \t]*(?:Q\d*|问题?\s*\d*|\d+)?[ \t]*[.、)）:：]?[ \t]*(?<question>[^\n]{2,30}?)[ \t]*(?:(?<mark>[?？])[ \t]*(?:A\d*[ \t]*[:：]|答案?[ \t]*[:：]|→|->|=>)?|A\d*[ \t]*[:：]|答案?[ \t]*[:：]|→|->|=>)[ \t]*${OPEN_QUOTE}${VALUE}${LINE_END}`,
  "gmud",
);
/** A list line that asks what security questions ask: "1. 母亲姓名？", "2. 出生城市？". */
const PERSONAL_LINE = new RegExp(
  String.raw`^[ \t]*(?:Q\d*|问题?\s*\d*|\d+)?[ \t]*[.、)）:：]?[ \t]*${TOPIC_ZH}[ \t]*[?？]`,
  "gmu",
);
/** A question about the account itself ("安全提示问题忘了怎么重设？"), which no list line answers. */
const ASKS_HOW = /忘|怎么|怎麼|怎样|怎樣|如何|为什么|為什麼|能不能|\bhow\b/iu;
const ASKS_ABOUT_SOMEONE = /你|您|\byour\b|什么|哪|谁|叫啥|是啥/iu;

/** "密保答案 ↓" then the answer alone on a line. */
const ANSWER_BELOW = new RegExp(
  String.raw`${KEYWORD_ZH}[^\n]{0,20}?答案(?<tail>[^\n]{0,12})\n[ \t]*\n?[ \t]*${OPEN_QUOTE}${VALUE}${LINE_END}`,
  "gud",
);
const POINTS_BELOW = /^\s*(?:是|就是|都是|为|如下|在下面)?\s*[:：↓⬇👇]*\s*$/u;

/** A quoted question ("> 你的密保答案是啥") and the answer alone on the line after it. */
const QUOTED_QUESTION = new RegExp(
  String.raw`^>[^\n]*${KEYWORD_ZH}[^\n]*\n[ \t]*${OPEN_QUOTE}${VALUE}${LINE_END}`,
  "gmud",
);

/** "(小黑) ← 密保答案", "wangcai <- 安全问题的答案". */
const ARROW_TO_KEYWORD = new RegExp(
  String.raw`(?<![\p{Script=Han}A-Za-z0-9])${OPEN_QUOTE}${VALUE}${CLOSE_QUOTE}[ \t]*(?:←|<-+)[ \t]*[^\n]{0,6}?${KEYWORD_ZH}`,
  "gud",
);

/** Every laid-out security answer in `text`; spans cover the answer only. */
export function findLaidOutAnswers(text: string): PhraseMatch[] {
  // Two or more personal questions in a list name what the list is, keyword or not.
  if (!SECURITY.test(text) && [...text.matchAll(PERSONAL_LINE)].length < 2) return [];
  return [
    ...answerSpans(
      text,
      LIST_LINE,
      (m) =>
        !ASKS_HOW.test(m.groups?.question ?? "") &&
        (m.groups?.mark !== undefined || ASKS_ABOUT_SOMEONE.test(m.groups?.question ?? "")),
    ),
    ...answerSpans(text, ANSWER_BELOW, (m) => POINTS_BELOW.test(m.groups?.tail ?? "")),
    ...answerSpans(text, QUOTED_QUESTION, () => true),
    ...answerSpans(text, ARROW_TO_KEYWORD, () => true),
  ];
}
