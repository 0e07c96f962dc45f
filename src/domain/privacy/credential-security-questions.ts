/**
 * A personal question of the kind security questions ask, answered in the same message
 * (docs/decisions/0950-a-personal-question-and-its-answer.md): "安全问题是我第一只狗的名字：旺财",
 * "验证问我的母校，我写的是 育才中学", "security question: your favourite teacher? Mr Chen". The
 * message must say a question is being asked before the personal question comes (密保, 安全问题,
 * 验证, "问我", "问题"), so that "我出生的城市：绵阳，现在在成都上班" tells a place, not an answer;
 * and a quiz asks about the world, not about the one who answers.
 */
import type { PhraseMatch } from "./credential-phrases";
import { answerSpans, OPEN_QUOTE, SECURITY_QUESTION, TOPIC_ZH, VALUE } from "./credential-security-words";
import { NOT_A_STATEMENT } from "./credential-sentence-values";

/** Words that say a question is asked or must be answered. */
const ASKED = String.raw`(?:${SECURITY_QUESTION}|问题|問題|问我|問我|问你|問你|问的是|問的是|验证|驗證)`;
/** Between the question and its answer: a mark ("？", "：", "——", "→") or "我填的", "就填". */
const TO_ANSWER = String.raw`(?:\s*(?:[?？]|[:：]|——|—|→|->|=>)\s*(?:(?:我|她|他)?就?(?:填|写|寫|答|设|設)(?:的|了)?(?:是|为)?\s*)?|\s*(?:是|叫|係)\s+|[，,\s]*(?:我|她|他|你)?就?(?:填|写|寫|答|设|設|说|說)(?:的|了)?(?:是|为|為)?[\s:：]*)`;
const ZH = new RegExp(
  String.raw`${ASKED}[^\n]{0,30}?(?<topic>${TOPIC_ZH})(?:叫什么|叫啥|叫咩|是什么|是啥|是哪|在哪)?${TO_ANSWER}${OPEN_QUOTE}${VALUE}`,
  "giud",
);

/** "security question: your favourite teacher? Mr Chen": the answer runs to the end of its clause. */
const EN =
  /\b(?:security|secret)\s+question\b[^\n?]{0,60}\?[ \t]*(?<value>[A-Za-z0-9][A-Za-z0-9.'’ -]{0,38}[A-Za-z0-9.])(?=[ \t]*(?:$|\n|[,;!。，]))/dgiu;
/** "Q: What was the name of your first school?\nA: St. Mary's Primary". */
const EN_QA =
  /^[ \t]*Q\d*[ \t]*[:：][^\n]*\b(?:your|my)\b[^\n]*\n[ \t]*A\d*[ \t]*[:：][ \t]*(?<value>[A-Za-z0-9][A-Za-z0-9.'’ -]{0,38}[A-Za-z0-9.])[ \t]*$/dgimu;

/** Advice gives an example, not an answer: "比如问你母亲名字你就填 xxx". */
const EXAMPLE = /比如|例如|比方|举个例子|舉個例子|\b(?:e\.g\.|for example|for instance|like)\b/i;

/** An answer that no example introduces and that is no question. */
function answers(text: string, re: RegExp): PhraseMatch[] {
  return answerSpans(text, re, (m) => {
    const at = m.indices?.groups?.value?.[0] ?? 0;
    const before = text.slice(Math.max(0, (m.index ?? 0) - 12), at);
    return !EXAMPLE.test(before) && !NOT_A_STATEMENT.test(m.groups?.value ?? "");
  });
}

/** Every answer given after a personal question that the message says is asked; spans cover the answer only. */
export function findAnsweredQuestions(text: string): PhraseMatch[] {
  return [...answers(text, ZH), ...answers(text, EN), ...answers(text, EN_QA)];
}
