/**
 * A stored statement that says what a secret is: "用户家的wifi密码是作业写完了吗老铁", "The user's PIN
 * is his wedding date backwards" (docs/decisions/0800-memory-never-states-a-secret.md).
 *
 * A message is masked by what its value looks like, and a value in Chinese words, a question or a
 * description can look like anything: on fresh sets about a third of such passwords pass the
 * rules. What memory and summaries keep is another matter. The model writes them in its own
 * plain words, and a statement of what a password, 口令, 暗号, PIN or code is — its value, or what
 * it is made of — is no memory worth the risk, whatever the value reads like. So a secret's name
 * followed, in the same clause, by "是 / 为 / 改成 / 设的是 / is / set to" and anything but a
 * question is never stored. Talk about passwords that gives nothing ("忘了QQ密码", "问wifi密码是
 * 多少", 密码学, 达芬奇密码) stays.
 *
 * Only for what is stored: chat messages keep their words (credentials.ts masks their values).
 */
import { detectionText } from "../text/detection-text";
import { KEYWORD_ZH } from "./credential-han-words";
import { CODE_EN, CODE_ZH, KEY_ZH, PASSWORD_EN, PASSWORD_SHORT } from "./credential-phrases";

const SECRET_EN = String.raw`(?<![A-Za-z])(?:${PASSWORD_EN}|${PASSWORD_SHORT}|${CODE_EN}|code\s*word|secret\s*word|countersign)(?![A-Za-z])`;
const SECRET = `(?:${KEYWORD_ZH}|${CODE_ZH}|${KEY_ZH}|${SECRET_EN})`;
/**
 * A few words of the same clause between the name and the verb ("现在", "已经", "我记得"); not a
 * story or a rule about it: "密码改了三次还是被顶号", "取款密码不能设成生日".
 */
const BETWEEN = String.raw`(?:(?![了过過还還也都又忘错錯不别別没沒])[^，。！？；,.!?;\n]){0,8}?`;
const STATED = String.raw`(?:就是|也是|还是|還是|仍是|是|为|為|叫做?|[:：=]|(?:改|换|換|设|設|定|设置|設置)(?:成|为|為)了?|用的是|设的是|設的是|\b(?:is|was|are|were|set\s+to|changed\s+to)\b)`;
/**
 * Not what it is: a question ("是多少", "是否", "is what"), a length alone ("是 6 位的", "is 4
 * digits"), or how it fares ("is wrong", "is required", "is too weak").
 */
const NOT_WHAT = String.raw`(?!\s*(?:否|不是|什么|什麼|多少|啥|哪|几|幾|what\b|\?|？|(?:\d+|[一二三四五六七八九十两兩]+)\s*(?:位|個|个|digits?|characters?|chars?)(?:数|數)?的?\s*(?:$|[，。！？,.!?])|(?:wrong|incorrect|invalid|required|too\b|weak|strong|broken|expired|not\b)))`;
const STATEMENT = new RegExp(`${SECRET}${BETWEEN}${STATED}${NOT_WHAT}\\s*\\S`, "iu");

export function statesACredential(text: string): boolean {
  return STATEMENT.test(detectionText(text).text);
}
