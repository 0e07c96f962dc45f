/**
 * The answer to a security question (QQ's 密保, "security answer"): it recovers the account as
 * the password does, so it is a credential (docs/decisions/0700-security-answers.md). Its value
 * is most often a name or a place in Chinese words ("密保答案是 王小花"), which the password
 * rules do not take from ordinary words. Only the answer is masked; the question stays.
 */
import type { PhraseMatch } from "./credential-phrases";
import { findLaidOutAnswers } from "./credential-security-layouts";
import { findAnsweredQuestions } from "./credential-security-questions";
import { isAnswerValue, KEYWORD_ZH, OPEN_QUOTE, VALUE } from "./credential-security-words";
import { NOT_A_STATEMENT } from "./credential-sentence-values";

/** Where the answer begins: 答案 (numbered in a list: 答案1), 答, 填, 写, or an arrow. */
const MARKER = String.raw`(?<marker>答案\d?|答(?=\s*[:：]|\s)|填(?!的?是?(?:什么|啥))|写(?!的?是?(?:什么|啥))|(?=\s*(?:→|->)))`;
/** Between marker and value: a few words of the clause ("我设的", "填的", "都一样") and 是 ("都是"), 係, =, ：, → or a space. */
const BRIDGE = String.raw`(?<bridge>[^\n，。！？；,.!?;\s"'“‘「『]{0,8}?)(?<connector>\s*(?:(?:都|也|全)?是|为|為|叫|係|系|=|[:：]|→|->)\s*|\s+)`;
/**
 * The keyword, the question if it is quoted (up to 30 characters, its own question mark
 * included), the marker and the answer. Straight after the marker ("答案刘建国") only when a
 * question stood between: "密保答案发群里" is no answer.
 */
const ZH = new RegExp(
  String.raw`${KEYWORD_ZH}(?:问题|問題)?(?<question>[^\n。！!；;]{0,30}?)${MARKER}(?<after>(?:${BRIDGE}|(?<bare>))${OPEN_QUOTE}${VALUE})`,
  "gud",
);
/** "security answer: Fluffy", "security answer for the steam acc is 'x'", "the memorable word is 'x'". */
const EN_DIRECT = new RegExp(
  String.raw`\b(?:(?:security|secret)\s+(?:question\s+)?answer|answer\s+to\s+(?:my|the|your|our)\s+security\s+question|memorable\s+word)(?<after>(?:\s+(?:for|of|on|to)\s+[^\n:：=]{1,30}?)?(?:\s*[:：=是]\s*|\s+(?:is|was)\s+(?:now\s+)?)${OPEN_QUOTE}${VALUE})`,
  "giud",
);
/** "security question: what was …? answer: Biscuit", "secret question is …, answer Huang". */
const EN_ASKED = new RegExp(
  String.raw`\b(?:security|secret)\s+question\b(?:[^\n]|\n(?!\n)){0,100}?\b(?<after>answer(?:\s*[:：=]\s*|\s+(?:is\s+)?)${OPEN_QUOTE}${VALUE})`,
  "giud",
);
/** After a few words, a space ends the bridge only where they say how it was set: "我设的 大黄", "填的 …". */
const SET_WORDS = /(?:设|填|写|改|用)(?:的|了)?(?:都|就)?$/;

/** A 是 after these says "or", "not" or "if" ("农历还是阳历", "不是", "要是"): no answer follows. */
const NOT_CONNECTOR = /(?:还|或|不|要|可|但|算|像|总|于|只|倒|而)$/;
const VALUE_AT_START = new RegExp(String.raw`^${OPEN_QUOTE}${VALUE}`, "ud");

/**
 * The answer's span in a match of ZH, or null. Where the words after the marker are no bridge
 * ("填王翠花就中 别整错字": a space after words that say nothing of how it was set, or a 是 that
 * means "or"), the answer is read straight after the marker when a question stood between.
 */
function zhAnswer(m: RegExpMatchArray): [number, number] | null {
  const g = m.groups ?? {};
  const asked = /\p{Script=Han}{2}/u.test(g.question ?? "");
  // "密保问题 → 修改" is a way through a menu: an arrow alone, with no 答案 before it, points at
  // an answer only after a question ("密保问题 我的小学 → 实验二小").
  if (g.marker === "" && !asked) return null;
  const bridge = g.bridge ?? "";
  const connector = g.connector?.trim() ?? "";
  const bridged = !bridge || (connector !== "" ? !NOT_CONNECTOR.test(bridge) : SET_WORDS.test(bridge));
  if (g.bare !== undefined && !asked) return null;
  if (bridged) {
    const at = m.indices?.groups?.value;
    // The quoted question may ask anything ("在哪裡？"); what follows the marker must not.
    return at && !NOT_A_STATEMENT.test(g.after ?? "") && isAnswerValue(g.value ?? "") ? [at[0], at[1]] : null;
  }
  const from = m.indices?.groups?.bridge?.[0];
  const straight = from === undefined || !asked ? null : (m.input ?? "").slice(from).match(VALUE_AT_START);
  const at = straight?.indices?.groups?.value;
  const value = straight?.groups?.value ?? "";
  return at && from !== undefined && !NOT_A_STATEMENT.test(value) && isAnswerValue(value)
    ? [from + at[0], from + at[1]]
    : null;
}

/** Every security answer in `text`; spans cover the answer only. */
export function findSecurityAnswers(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(ZH)) {
    const span = zhAnswer(m);
    if (span) out.push({ start: span[0], end: span[1], id: "security-answer" });
  }
  for (const m of [...text.matchAll(EN_DIRECT), ...text.matchAll(EN_ASKED)]) {
    const at = m.indices?.groups?.value;
    if (!at || NOT_A_STATEMENT.test(m.groups?.after ?? "") || !isAnswerValue(m.groups?.value ?? "")) continue;
    out.push({ start: at[0], end: at[1], id: "security-answer" });
  }
  // Two layouts may read the same answer; it is one finding.
  const all = [...out, ...findLaidOutAnswers(text), ...findAnsweredQuestions(text)];
  return all.filter((f, i) => all.findIndex((g) => g.start === f.start && g.end === f.end) === i);
}
