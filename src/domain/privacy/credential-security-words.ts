/**
 * The words of a security question's answer (docs/decisions/0700-security-answers.md): the
 * keywords that name the question, the shape of an answer, and the words that describe one
 * instead of being it. Shared by the sentence rules and the laid-out ones.
 */
import type { PhraseMatch } from "./credential-phrases";
import { NOT_PASSPHRASE_WORDS } from "./credential-sentence-values";

/**
 * A question of the kind security questions ask, given as the question: "问题是「你最爱的人」",
 * "问题：你的小学". A quiz asks about the world ("问题：中国最长的河"), not about the one who answers.
 */
const PERSONAL_QUESTION = String.raw`(?:问题|問題)\s*[是:：]?\s*["“「『(（]?(?:你|您)(?:的)?(?:最(?:喜欢|喜歡|爱|愛|难忘|難忘)|第一|小学|小學|初中|高中|出生|母亲|母親|父亲|父親|妈妈|媽媽|爸爸|宠物|寵物|偶像|外号|外號|小名|配偶|爱人|愛人)`;
/**
 * 密保 (and its slips 密宝, "mb"), 安全问题 and its kinds, a bank's 预留问题, in either script; or
 * a personal question given as such.
 */
export const KEYWORD_ZH = String.raw`(?:密保|密宝|秘保|密寶|(?<![A-Za-z])(?:mb|mibao)(?=\s*答案)|(?:验证|驗證)(?:问题|問題)|安全(?:提示|保护)?(?:问题|問題)|密码提示问题|预留问题|${PERSONAL_QUESTION})`;
/** A security question named in any script or in English: what its answer may be named after. */
export const SECURITY_QUESTION = String.raw`${KEYWORD_ZH}|\b(?:(?:security|secret)\s+(?:questions?|answer)|memorable\s+word|maiden\s+name)\b`;
const KIN = String.raw`(?:母亲|母親|父亲|父親|妈妈|媽媽|爸爸|老妈|老爸|妈|媽|爸|外婆|外公|姥姥|姥爷|姥爺|奶奶|爷爷|爺爺)`;
const NAMED = String.raw`(?:的|嘅)?(?:名字|姓名|名|生日)|叫什么|叫什麼|叫啥|叫咩|姓什么|姓啥`;
/** What a security question asks about the one who answers, in Chinese (its own 你/我 optional). */
export const TOPIC_ZH = String.raw`(?:你|您|我|她|他)?(?:的|嘅)?(?:第一(?:只|隻|个|個|所|份|辆|輛)?(?:的|嘅)?)?(?:${KIN}(?:${NAMED})|(?:宠物|寵物|狗|猫|貓)(?:${NAMED})?|出生(?:的|嘅)?(?:城市|地点|地點|地|医院|醫院)|出世(?:嘅)?城市|老家|家乡|家鄉|母校|(?:小学|小學|初中|高中|大学|大學)(?:学校|學校|的名字|班主任(?:的名字|姓什么|姓啥)?)?|最(?:喜欢|喜歡|爱|愛|难忘|難忘)(?:的|嘅)?\p{Script=Han}{1,3}?|最好(?:的|嘅)?朋友(?:${NAMED})?)`;
export const OPEN_QUOTE = `["'“‘「『【(（]?`;
/**
 * A date ("1998年3月2日"), two to sixteen Chinese characters (with the digits or letters that
 * follow them: "小白2009"), one with letters after it ("阿Ken"), or a token of letters, digits and
 * keypad symbols.
 */
export const VALUE = String.raw`(?<value>(?:\d{2,4}年)?\d{1,2}月\d{1,2}[日号號]|\p{Script=Han}{2,16}[A-Za-z0-9]*(?![\p{Script=Han}A-Za-z0-9])|\p{Script=Han}[A-Za-z][A-Za-z0-9]{1,15}(?![\p{Script=Han}A-Za-z0-9])|[A-Za-z0-9_@#$%&*+\-.!~^]{2,64}(?![A-Za-z0-9_@#$%&*+\-.!~^]))`;
/**
 * Words that say what the answer is like instead of being it: "是我妈的名字", "一个英文单词加数字",
 * "请牢记", "小学班主任的姓", "农历还是阳历". A 的 alone is no such word: "外婆家的枣树" is an answer.
 */
const DESCRIBES_ZH =
  /^答案|别告|別告|不要|告诉|告訴|我|你|他|她|名字|姓|生日|地址|手机|号码|一样|相同|拼音|汉字|英文|中文|单词|数字|字母|一个|来着|想不|记得|記得|牢记|请|真实|忘|错|吗|呢|什么|啥|怎|點|多少|哪|还是|或者|或是|的(?:名|号|日|年|字|缩写|全称|谐音)/;
const DESCRIBES_EN = /^(?:case|sensitive|wrong|correct|required|optional|different|same|blank|empty|x+)$/i;

/**
 * The answer of each match of `re` (its `value` group) that can be an answer and that `keep`
 * keeps; spans cover the answer only.
 */
export function answerSpans(text: string, re: RegExp, keep: (m: RegExpMatchArray) => boolean): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(re)) {
    const at = m.indices?.groups?.value;
    if (at && isAnswerValue(m.groups?.value ?? "") && keep(m))
      out.push({ start: at[0], end: at[1], id: "security-answer" });
  }
  return out;
}

/** True when `value` can be the answer itself, not words about it. */
export function isAnswerValue(value: string): boolean {
  if (DESCRIBES_ZH.test(value) || DESCRIBES_EN.test(value)) return false;
  return /[\p{Script=Han}A-Za-z0-9]/u.test(value) && !NOT_PASSPHRASE_WORDS.has(value.toLowerCase());
}
