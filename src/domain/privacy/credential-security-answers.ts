/**
 * The answer to a security question (QQ's 密保, "security answer"): it recovers the account as
 * the password does, so it is a credential (docs/decisions/0700-security-answers.md). Its value
 * is most often a name or a place in Chinese words ("密保答案是 王小花"), which the password
 * rules do not take from ordinary words. Only the answer is masked; the question stays.
 */
import type { PhraseMatch } from "./credential-phrases";
import { NOT_A_STATEMENT, NOT_PASSPHRASE_WORDS } from "./credential-sentence-values";

/** 密保 (and its slips 密宝, "mb"), 安全问题 and its kinds, a bank's 预留问题, in either script. */
const KEYWORD_ZH = String.raw`(?:密保|密宝|(?<![A-Za-z])mb(?=答案)|安全(?:提示|保护)?(?:问题|問題)|密码提示问题|预留问题)`;
/** Where the answer begins: 答案 (numbered in a list: 答案1), 答, 填, 写, or an arrow. */
const MARKER = String.raw`(?:答案\d?|答(?=\s*[:：]|\s)|填(?!的?是?什么)|写(?!的?是?什么)|(?=\s*(?:→|->)))`;
/** Between marker and value: a few words of the clause ("我设的", "填的") and 是, 係, =, ：, → or a space. */
const BRIDGE = String.raw`(?<bridge>[^\n，。！？；,.!?;\s"'“‘「『]{0,8}?)(?<connector>\s*(?:是|为|為|叫|係|系|=|[:：]|→|->)\s*|\s+)`;
const OPEN_QUOTE = `["'“‘「『]?`;
/** Two to sixteen Chinese characters (with the digits or letters that follow them: "小白2009"), or a token of letters, digits and keypad symbols. */
const VALUE = String.raw`(?<value>\p{Script=Han}{2,16}[A-Za-z0-9]*(?![\p{Script=Han}A-Za-z0-9])|[A-Za-z0-9_@#$%&*+\-.!~^]{2,64}(?![A-Za-z0-9_@#$%&*+\-.!~^]))`;
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
  String.raw`\b(?:security|secret)\s+question\b[^\n]{0,100}?\b(?<after>answer(?:\s*[:：=]\s*|\s+(?:is\s+)?)${OPEN_QUOTE}${VALUE})`,
  "giud",
);
/** Words that say what the answer is like instead of being it: "是我妈的名字", "一个英文单词加数字", "请牢记". */
const DESCRIBES_ZH =
  /我|你|他|她|的|名字|生日|手机|号码|一样|相同|拼音|汉字|英文|中文|单词|数字|字母|一个|来着|想不|记得|記得|牢记|请|真实|忘|错|吗|呢|什么|怎|點|多少|哪/;
const DESCRIBES_EN = /^(?:case|sensitive|wrong|correct|required|optional|different|same|blank|empty|x+)$/i;
/** After a few words, a space ends the bridge only where they say how it was set: "我设的 大黄", "填的 …". */
const SET_WORDS = /(?:设|填|写|改|用)(?:的|了)?(?:都|就)?$/;

/** Every security answer in `text`; spans cover the answer only. */
export function findSecurityAnswers(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of [...text.matchAll(ZH), ...text.matchAll(EN_DIRECT), ...text.matchAll(EN_ASKED)]) {
    const at = m.indices?.groups?.value;
    const value = m.groups?.value ?? "";
    const g = m.groups ?? {};
    // The quoted question may ask anything ("在哪裡？"); what follows the marker must not.
    if (!at || NOT_A_STATEMENT.test(g.after ?? "") || DESCRIBES_ZH.test(value)) continue;
    if (g.bare !== undefined && !/\p{Script=Han}{2}/u.test(g.question ?? "")) continue;
    if (g.bridge && g.connector?.trim() === "" && !SET_WORDS.test(g.bridge)) continue;
    if (!/[\p{Script=Han}A-Za-z0-9]/u.test(value) || DESCRIBES_EN.test(value)) continue;
    if (NOT_PASSPHRASE_WORDS.has(value.toLowerCase())) continue;
    out.push({ start: at[0], end: at[1], id: "security-answer" });
  }
  return out;
}
