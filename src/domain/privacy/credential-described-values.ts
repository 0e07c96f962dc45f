/**
 * Values said by describing or dictating them rather than typing them
 * (docs/decisions/0530-described-credential-values.md):
 *
 * - repeated digits: "wifi密码是八个八", "密码全是1", "俩六俩八", "前三个是一", "my pin is all zeros";
 * - letters by their case, with what follows: "大写A 小写b 然后123", "capital T, lowercase iger";
 * - digits dictated one by one: "the code is 1-2-3-4", "door code: one one two two",
 *   "门禁 1 9 8 7", "键盘输 幺洞洞幺", "行李箱密码 三 七 二";
 * - a value said before its keyword: "八个八，就是wifi密码", "all nines is the pin".
 *
 * A description counts only next to a keyword of its sentence, or a place where digits are typed
 * (门禁, 保险柜, 键盘, 按, keypad), never after a negation or an example ("别用八个八这种密码"),
 * and only when it ends its clause or the next step begins: "一个一个试" and "三个一百分" describe
 * no value. Letters by their case need no keyword: nobody else talks like that. Dial turns, wifi
 * values and unlock shapes are credential-lock-values.ts's. Only the value is masked.
 */

import { SPOKEN_DIGITS } from "../text/spoken-digits";
import {
  CODE_EN,
  CODE_ZH,
  NOT_THE_PASSWORD,
  PASSWORD_EN,
  PASSWORD_ZH,
  type PhraseMatch,
} from "./credential-phrases";

const DIGIT = `(?:\\d|[${SPOKEN_DIGITS}])`;
const COUNT = String.raw`(?:\d{1,2}|[两俩一二三四五六七八九十]{1,2})`;
/** "前三位", "后两个数": which digits a description is of. */
const POSITION = String.raw`(?:前|后|中间|最后)[一二三四五六两俩]?[个位](?:数字?)?\s*`;
const REPEAT = String.raw`(?:${COUNT}个${DIGIT}|俩${DIGIT}|(?:全|都)(?:是|拨到|转到|拨成|按)?${DIGIT})`;
/**
 * "八个八", "6个0", "俩六", "全是1", "全拨到零", "前三个是一", "前三位三个二", "一到六顺着按" (a range
 * read in order).
 */
const REPEAT_ZH = String.raw`(?:${POSITION}(?:(?:都|全)?是${DIGIT}|${REPEAT})|${REPEAT}|${DIGIT}到${DIGIT}(?=\s*(?:顺着|依次|挨个|按顺序)))`;
const EN_NUMBER = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve";
const EN_DIGITS = String.raw`(?:zeros?|zeroes|ones|twos|threes|fours|fives|sixes|sevens|eights|nines|[0-9]['’]?s)`;
/** "all zeros", "just 4 sevens", "eight 1s". */
const REPEAT_EN = String.raw`(?:(?:all|just|only)\s+(?:(?:\d{1,2}|${EN_NUMBER})\s+)?${EN_DIGITS}|(?:\d{1,2}|${EN_NUMBER})\s+${EN_DIGITS})\b`;
/** Letters one by one: "o v e", "a p p y". */
const SPELLED = String.raw`(?<![A-Za-z])[A-Za-z](?:\s+[A-Za-z](?![A-Za-z])){1,11}`;
/** Letters said with their case: "大写A 小写b", "全小写的abc", "capital T, lowercase iger", "lowercase a p p y". */
const CASED = String.raw`(?:全?(?:大写|小写)|capital|upper\s*case|lower\s*case|all\s+lower\s*case|all\s+caps)\s*(?:的\s*)?(?!(?:letters?|characters?|chars?|case|words?)\b)(?:${SPELLED}|[A-Za-z]{1,12}(?![A-Za-z]))`;
const SPOKEN = "zero|oh|one|two|three|four|five|six|seven|eight|nine";
const CORE = `(?:${REPEAT_ZH}|${REPEAT_EN}|${CASED})`;
/** What may follow a described part: more parts, digits (Chinese too), spelled letters, a spoken digit. */
const PART = String.raw`(?:${CORE}|\d(?:\s\d){1,11}(?!\d)|\d{1,8}(?!\d)|[${SPOKEN_DIGITS}]{2,12}|${SPELLED}|(?:a\s+)?(?:${SPOKEN})\b)`;
const STEP = String.raw`(?:[加和再跟+]|然后|接着|后面|\bthen\b|\band\b|\bplus\b)`;
const SEP = String.raw`(?:\s*[，,、]\s*(?:${STEP}\s*){0,2}|\s*(?:${STEP}\s*){1,2}|\s+)`;
/** Parts in a row, up to seven; two described parts may touch ("三个五三个六", "俩六俩八"). */
const DESCRIBED = `(?:${CORE}(?:${SEP}${PART}|${CORE}){0,6})`;
/**
 * Where a description must end: its clause ends, perhaps after a particle ("六个八了"), or the
 * next step begins ("6个0再按个井号"). "一个一个试" and "三个一百分" go on and describe nothing.
 */
export const CLAUSE_END = String.raw`(?=\s*[了的吧啊呀哦嘛呢]{0,2}\s*(?:$|[，。！？；、,.!?;~～)）]|\s|再|然后|就|顺着|依次|挨个|按顺序|\bthen\b))`;

/** Spoken digits, in ones or pairs, with dashes, commas or "then" between: "five five, then zero zero". */
const SPOKEN_RUN = String.raw`(?:${SPOKEN})(?:(?:[\s,-]+(?:then\s+)?)(?:${SPOKEN})){N,11}\b`;
/** Digits dictated one at a time: "1-2-3-4", "4 4 7 1", "one one two two", "七 三 九 一", "五-八-零-三", "零零八八". */
const dictated = (n: number) =>
  String.raw`(?:(?<!\d)\d(?:\s*[-–]\s*\d|\s+\d){${n},11}(?![\d.])|${SPOKEN_RUN.replace("N", String(n))}|[${SPOKEN_DIGITS}](?:\s*[-–]\s*[${SPOKEN_DIGITS}]|\s+[${SPOKEN_DIGITS}]){${n},11}(?!\S)|[${SPOKEN_DIGITS}]{${n + 1},12}(?:(?!\p{Script=Han})|(?=就|再|然后|井号|星号)))`;
/** Four digits or more anywhere a code is read; three after a lock's or a password's own word (luggage locks have three). */
const DICTATED = dictated(3);
const DICTATED_SHORT = dictated(2);
const TEENS = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen";
const SPOKEN_NUMBER = String.raw`(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\s](?:${SPOKEN}))?|${TEENS}|${SPOKEN})`;
/**
 * A combination's numbers: "locker combo is 12 24 36", "密码锁 12-38-04", "twenty-two, thirteen,
 * eight", or digits read in groups: "一三八 零零一二 三四五六".
 */
const GROUPS = String.raw`(?:(?<!\d)\d{1,2}(?:\s*[-–]\s*\d{1,2}|\s+\d{1,2}){2,5}(?![\d.])|\b${SPOKEN_NUMBER}(?:[\s,]+${SPOKEN_NUMBER}){2,5}\b|[${SPOKEN_DIGITS}]{2,4}(?:\s+[${SPOKEN_DIGITS}]{2,4}){1,5}(?!\S))`;

const PLACE_ZH = "门禁|保险箱|保险柜|密码锁|车锁|挂锁|行李箱|开锁|开门|开机|解锁|取款|取钱|支付|付款";
export const WIFI = String.raw`wi-?fi|wlan|无线网?|热点`;
const KEYWORD = `(?:(?:${PASSWORD_ZH})${NOT_THE_PASSWORD}|${CODE_ZH}|${PLACE_ZH}|(?<![A-Za-z])(?:${PASSWORD_EN}|${CODE_EN}|key\\s*box\\s+code|combination|luggage\\s+lock|${WIFI})(?![A-Za-z]))`;
/**
 * Where digits are typed or read aloud, a dictated value needs no "code": "lockbox is 2-5-8-0",
 * "楼下大门 零零八八", "键盘输 幺洞洞幺", "挂锁拨到二八二八", "报警器布防码 一一二二".
 */
const PLACE = String.raw`(?:[大侧后前正]门|单元门|门锁|锁|柜|键盘|输入?|按|拨到|转到|(?<=\p{Script=Han})码|(?<![A-Za-z])(?:lock\s*box|alarm|safe|(?:bike\s+|pad|door\s+)?lock|unlock|gate|door|garage|locker|keypad|type|enter|punch\s+in|roll|spin|dial)(?![A-Za-z]))`;
/** Between keyword and value: the same clause, no question, negation or example. */
const BRIDGE = String.raw`(?<bridge>[^\n，。！？；,.!?;]{0,14}?)`;
/** A bridge that turns the value into advice, a question or an example: "别设成", "不能是", "比如". */
const NOT_SAID =
  /别|不|没|勿|千万|如果|比如|例如|像|这种|之类|弱|常见|简单|容易|忘|错|怎|吗|是不是|什么|哪|多少|\b(?:not|don't|never|if|like|wrong|what|how)\b/i;

export const rx = (source: string) => new RegExp(source, "giud");
const KEYWORD_FIRST = rx(`(?:${KEYWORD}|${PLACE})${BRIDGE}(?<value>${DESCRIBED})${CLAUSE_END}`);
/** The value first, then what it opens: "八个八，就是wifi密码", "五个三 井号 大门就开", "三五七九星号 小区侧门的". */
const VALUE_FIRST = rx(
  String.raw`(?<![^\s，。！？；,.!?;])(?<value>${DESCRIBED}|${DICTATED})(?:\s*(?:星号|井号|[#*]))?\s*[，,]?\s*(?:就是|这是|那是|是|为|that['’]s|is)?\s*(?<bridge>[^\n，。！？；,.!?;]{0,12}?)(?:${KEYWORD}|${PLACE})`,
);
const DICTATED_AFTER = rx(`(?:${KEYWORD}|${PLACE})${BRIDGE}(?<value>${DICTATED})`);
/** Every dictated value of the keyword's sentence: "gate code is two four six eight but backwards, so eight six four two". */
const DICTATED_FAR = rx(`(?<=${KEYWORD}[^\n。！？；!?;]{0,60})(?<value>${DICTATED})`);
const DICTATED_THREE = rx(`${KEYWORD}${BRIDGE}(?<value>${DICTATED_SHORT})`);
/** Two letters said with their case, or one and digits, describe a password wherever they stand. */
const CASED_ANYWHERE = rx(`(?<value>${CASED}(?:${SEP}${PART}|${CORE}){1,6})${CLAUSE_END}`);
const GROUPS_AFTER = rx(`${KEYWORD}${BRIDGE}(?<value>${GROUPS})`);
/** The dictated form also after a bare "code": "the code is 1-2-3-4" reads a code aloud. */
const DICTATED_CODE = rx(`(?<![A-Za-z])code(?![A-Za-z])${BRIDGE}(?<value>${DICTATED})`);

/** Every described or dictated value in `text`; spans cover the value only. */
export function findDescribedValues(text: string): PhraseMatch[] {
  return [
    ...keyed(text, KEYWORD_FIRST),
    ...keyed(text, VALUE_FIRST),
    ...keyed(text, DICTATED_AFTER),
    ...keyed(text, DICTATED_FAR),
    ...keyed(text, DICTATED_THREE),
    ...keyed(text, CASED_ANYWHERE),
    ...keyed(text, GROUPS_AFTER),
    ...keyed(text, DICTATED_CODE),
  ];
}

const ALONE = new RegExp(`^(?:${DESCRIBED}|${DICTATED})[了吧啊呀哦]?$`, "iu");

/** A message that is nothing but a description ("八个八", "all zeros"): an announced value. */
export function describedAlone(text: string): boolean {
  return ALONE.test(text.trim());
}

/** Advice just before a match: "不要把密码设成八个八", "never use all zeros as your pin". */
const ADVICE_BEFORE =
  /(?:别|不要|不能|不可以|千万|勿|避免|\b(?:never|don't|do not|avoid|shouldn't)\b)[^，。！？；,.!?;\n]{0,12}$/i;

/** The value of each match of `pattern` whose words around it say it, not advise against it. */
export function keyed(text: string, pattern: RegExp): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(pattern)) {
    const at = m.indices?.groups?.value;
    if (!at || NOT_SAID.test(m.groups?.bridge ?? "")) continue;
    if (ADVICE_BEFORE.test(text.slice(Math.max(0, m.index - 16), m.index))) continue;
    out.push({ start: at[0], end: at[1], id: "password-phrase" });
  }
  return out;
}
