/**
 * Passwords in Chinese words that a keyword does not sit beside, but the message around them
 * names (docs/decisions/0730-passwords-in-chinese-words.md):
 *
 * - the quoted lines of a countersign: a message that names 暗号 or 接头 and quotes what one
 *   says and the other answers ("你问“今天吃了吗”，我答“吃了两碗面”");
 * - a list under a header that names passwords: "几个密码发你：\n1. 家里WiFi：长城永不倒";
 * - the answer line under a question for one: "Q：网盘密码？\nA：番茄炒蛋yyds";
 * - a gate's question answered in the same message: "加群问题：…？答案：胖橘猫" (decision 0850).
 */
import { isHanValue } from "./credential-han-words";
import { PASSWORD_ZH, type PhraseMatch } from "./credential-phrases";

const COUNTERSIGN = /暗号|暗號|接头|接頭|对口令|對口令/;
const QUOTED = /[“「『"]([^”」』"\n]{2,16})[”」』"]/gu;
/** A countersign's halves unquoted: "上句 鸽子会飞 下句 鸽子不会". */
const HALVES = /(?:上句|下句|上联|下联)\s*[:：]?\s*(\p{Script=Han}{2,16})/gu;
/** A header line that names passwords and opens a list: "几个密码发你，看完删掉：". */
const HEADER = new RegExp(String.raw`(?:${PASSWORD_ZH}|暗号|口令)[^\n]{0,30}[:：]\s*$`, "u");
/** One item of the list: "1. 家里WiFi：长城永不倒", "- 机顶盒童锁: 少看电视". */
const ITEM = /^\s*(?:\d{1,2}[.、)．]|[-*•·])?\s*[^:：\n]{1,16}[:：]\s*(\S{2,24})\s*$/u;

/** A line that asks for a password, and the answer line after it. */
const ASKED = new RegExp(String.raw`(?:${PASSWORD_ZH}|暗号|口令)[^\n]{0,12}[?？]\s*$`, "u");
const ANSWER = /^\s*(?:A|答|答案|回复?|回覆)\s*[:：]\s*(\S{2,24})\s*$/u;
/**
 * A gate's question and its answer in one message: "加群问题：…？答案：胖橘猫", "进群问题问你老家在哪个镇
 * 你就填 青石镇"; not a quiz's "问题：…？答案：北京", which opens nothing. An account's security
 * question is credential-security-answers.ts's (decision 0700).
 */
const GATE_ANSWERED =
  /(?:入群|进群|加群|空间|相册|访问)(?:问题|問題)[^\n]{0,40}?(?:答案\s*[:：是]|就?填|就?答|回答)\s*[“「『"]?(\p{Script=Han}{2,16})/gu;
/** A join question or a security-style question given as "问题：…", answered on the next line. */
const QUESTION_LINE = /^\s*(?:Q|问题|問題)\s*[:：]/u;

export function findHanValuesInContext(text: string): PhraseMatch[] {
  // A list and an answer line take more than one line.
  const lines = text.includes("\n") ? [...listed(text), ...answered(text)] : [];
  return [...countersigns(text), ...gateAnswers(text), ...lines];
}

function gateAnswers(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(GATE_ANSWERED)) {
    const value = m[1] ?? "";
    if (!isHanValue(value)) continue;
    const start = m.index + m[0].length - value.length;
    out.push({ start, end: start + value.length, id: "password-phrase" });
  }
  return out;
}

function answered(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  const lines = text.split("\n");
  let at = 0;
  lines.forEach((line, i) => {
    const asked = i > 0 && (ASKED.test(lines[i - 1] ?? "") || QUESTION_LINE.test(lines[i - 1] ?? ""));
    const answer = asked ? ANSWER.exec(line)?.[1] : undefined;
    if (answer && listedValue(answer)) {
      const start = at + line.lastIndexOf(answer);
      out.push({ start, end: start + answer.length, id: "password-phrase" });
    }
    at += line.length + 1;
  });
  return out;
}

function countersigns(text: string): PhraseMatch[] {
  if (!COUNTERSIGN.test(text)) return [];
  const out: PhraseMatch[] = [];
  for (const m of [...text.matchAll(QUOTED), ...text.matchAll(HALVES)]) {
    const value = m[1] ?? "";
    // A question may be a countersign's half ("今天吃什么"): it is judged by its words alone.
    if (!isHanValue(value, { asks: false })) continue;
    const start = m.index + m[0].indexOf(value);
    out.push({ start, end: start + value.length, id: "password-phrase" });
  }
  return out;
}

/** Chinese words that describe nothing, or a token of letters and digits ("建国1962abc"). */
function listedValue(value: string): boolean {
  if (/\p{Script=Han}/u.test(value)) return isHanValue(value.replace(/[A-Za-z0-9]+/g, ""));
  return /[A-Za-z]/.test(value) && /\d/.test(value);
}

function listed(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  let inList = false;
  let at = 0;
  for (const line of text.split("\n")) {
    const item = inList ? ITEM.exec(line) : null;
    // An item that holds no value ("3. 打印机：不用密码") keeps the list going.
    if (!item) inList = HEADER.test(line);
    else if (item[1] && listedValue(item[1])) {
      const start = at + line.lastIndexOf(item[1]);
      out.push({ start, end: start + item[1].length, id: "password-phrase" });
    }
    at += line.length + 1;
  }
  return out;
}
