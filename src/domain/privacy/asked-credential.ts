/**
 * A password asked for in a chat and answered by whoever knows it: "wifi密码多少？", then
 * "dx2024wifi" or "admin123 没改过" from another member
 * (docs/decisions/0820-a-value-given-in-answer.md; the questions of remembering, sending again,
 * looking up and dialects, and answers typed as a keypad is read:
 * docs/decisions/0830-more-ways-to-ask-for-a-password.md).
 * Neither message holds a keyword with its value. The chat object's cues (announced-credential.ts)
 * keep, for the whole chat, that a message asked for one; one of the next ASKED_REACH messages
 * within the cue window that holds a token shaped like a password — three digits or more, or
 * letters with digits or a symbol — has that token masked, and the question is answered. Words
 * ("问前台", "8位数字", "same"), links, times, prices and versions are no value.
 */
import { detectionText } from "../text/detection-text";
import { openWait, waitAfter } from "./answer-wait";
import { CODE_ZH, isPlaceholder, PASSWORD_SHORT, PASSWORD_ZH } from "./credential-phrases";

/** How many messages after the question may answer it: a group chats on in between. */
export const ASKED_REACH = 5;

/** wifi, unless what is asked is its name: "你们wifi叫啥名字". */
const WIFI = String.raw`wi-?fi(?![^，。！!,.\n]{0,4}?(?:名|叫|ssid|name))`;
/** The answer that lets one in, not a quiz's: "进群答案", "验证问题的答案", "密保答案". */
const GATE_ANSWER = String.raw`(?:进群|入群|加群|验证|密保|安全)(?:问题)?的?答案`;
/**
 * What is asked for: the password and code words the rules read (credential-phrases.ts), 暗号,
 * wifi, and a lock, whose code is what "多少" asks; not 密码学, 密码箱, 密码锁.
 */
export const SECRET = String.raw`(?:(?:${PASSWORD_ZH}|暗号|${CODE_ZH}|${WIFI})(?!学|箱|锁|本|器)|(?<![A-Za-z])(?:${PASSWORD_SHORT}|mm|pwd|pin)(?![A-Za-z])|锁|${GATE_ANSWER})`;
/** What has a number, which "多少号" asks: a password or a lock, not a room or a building. */
const NUMBERED = String.raw`(?:${PASSWORD_ZH}|锁)`;
/** A clause's characters and its ellipses, not past its end; nor a refusal ("密码别告诉我"). */
const GAP = String.raw`(?:(?!别|不要|不用|甭|勿)(?:\.{2,}|[^，。！!,.\n]))`;
const ASKING = new RegExp(
  [
    // Not an amount: "宽带wifi多少钱", "锁了多少次".
    String.raw`${SECRET}[^，。！!,.\n]{0,6}?(?:多少|几多|啥|什么|么子|咩|几位?|哪个)(?!\s*(?:钱|块|元|米|兆|个|人|度|天|次|岁|斤|分|号|楼|平|万|千|(?:m|g|mb|gb|k)\b))`,
    // Sichuan's 好多 asks "how much" only at the clause's end: "wifi密码是好多嘛", not "好多人".
    String.raw`${SECRET}${GAP}{0,6}?好多(?=\s*(?:嘛|哦|啊|呀|哇|喃|$|[?？]))`,
    String.raw`${NUMBERED}${GAP}{0,6}?(?:多少|几多|几)号`,
    String.raw`${SECRET}\s*(?:是|系|呢)?\s*[?？]|${SECRET}\s*呢\s*$`,
    String.raw`(?:知道|记得|有人有|谁有|求)[^，。！!,.\n]{0,10}?${SECRET}|${SECRET}[^，。！!,.\n]{0,4}?(?:谁知道|谁有|有人知道)`,
    // Whether the asked remembers it: "柜子密码 你还记得不".
    String.raw`${SECRET}${GAP}{0,16}?(?:记得|知道|晓得)(?:不|吗|么|没|伐)|${SECRET}${GAP}{0,16}?(?:记不记得|知不知道|晓不晓得)`,
    // Looking it up for the asker: "帮我看下手机上的验证码", "验证码发你手机了 帮我看一下".
    String.raw`帮(?:我|忙)(?:看|查|找)${GAP}{0,12}?${SECRET}|${SECRET}${GAP}{0,16}?帮(?:我|忙)(?:看|查|找)`,
    // Whether there is one, which its answer gives: "有密码吗" / "有的 0925".
    String.raw`有(?:没有)?(?:${PASSWORD_ZH}|暗号|口令)\s*(?:吗|么|嘛|不|没|[?？])|(?:${PASSWORD_ZH}|暗号|口令)有(?:吗|没有|没|不)`,
    // An order to send it: "密码发我", "验证码给我说下", "密码能不能再给我一次".
    String.raw`${SECRET}${GAP}{0,4}?再?(?:发|给|告诉|说|报|私|俾|畀)(?:我|一下|下|一遍|一次)`,
    // An offer to send it, which the next messages keep: "取件码我发你".
    String.raw`${SECRET}\s*(?:我|等下|待会儿?)?(?:发|给|私)(?:你|您)`,
    String.raw`\bwhat(?:'s|\s+is|s)\s+the\s+(?:wi-?fi\s+|door\s+|gate\s+)?(?:password|pw|pass|code|pin)\b`,
    String.raw`\b(?:wi-?fi\s+)?(?:password|pw|pwd|passcode|pin)\s*\?`,
    String.raw`\b(?:have|got|know)\s+the\s+(?:[\w-]+\s+){0,3}?(?:password|pw|code|pin|passcode)\b`,
  ].join("|"),
  "iu",
);

/** Whether a message asks for a password or a code. */
export function asksForCredential(text: string): boolean {
  return ASKING.test(detectionText(text).text);
}

/** A run of printable characters between spaces or Chinese words, its quotes and brackets aside. */
const RUN = /[\x21-\x7E]{3,80}/g;
const EDGES = /^["'`([{<“‘「]+|["'`)\]}>”’」,.;:!?]+$/g;
/** Not a value: a link, a command, a mention, a time, a price, a version or a decimal. */
const NOT_A_VALUE = /:\/\/|^www\.|^[/@#¥$]|^\d{1,2}:\d{2}|^v?\d+(?:\.\d+)+[A-Za-z]*$/i;
/** A keypad's star and hash around digits are how the code is typed: "*6028", "1379#", "#6633#". */
const KEYPAD = /^[*#]+(?=\d+[*#]*$)|[*#]+$/g;

/**
 * A date or a range ("12/25", "2026-12-07", "3-5"): no part past a month's days, one a month's
 * number; "17-42-08", a dial's turns, is none of these.
 */
function isDateOrRange(value: string): boolean {
  const parts = value.split(/[/-]/);
  if (parts.length < 2 || parts.length > 3 || !parts.every((p) => /^\d+$/.test(p))) return false;
  const [a, b, c] = parts.map(Number) as [number, number, number | undefined];
  if (parts.length === 2) return (a <= 12 && b <= 31) || (a <= 31 && b <= 12) || a < b;
  const [first, , last] = parts as [string, string, string];
  if (first.length === 4) return b <= 12 && (c ?? 0) <= 31;
  return (a <= 31 && b <= 12) || (a <= 12 && b <= 31) || last.length === 4;
}

/** What follows a number that counts or measures something. */
const UNIT =
  /^\s?(?:[年月日号號岁歲点點时時元块塊万萬千百亿億个個人次分秒米斤天周期楼樓层層届屆级級名位度倍多余餘张張本部集首页頁章台辆輛瓶杯遍场場票套只件克升寸尺%℃]|厘米|公里|公斤|英寸|英尺|毫米|km|kg|cm|mm|ms|gb|mb|kb|k\b|w\b)/i;

/** Four to twelve single digits, one space apart. */
const SPACED_DIGITS = /(?<!\d ?)\d(?: \d){3,11}(?! ?\d)/;

/**
 * The value a message answers with: digits typed apart, or its first run shaped like a password —
 * three digits or more, or letters with digits, or letters with a symbol inside — or null when it
 * has none.
 */
export function answeredValue(text: string): string | null {
  // Digits typed one by one, as a keypad is read out: "9 2 7 4 6 1".
  const spaced = SPACED_DIGITS.exec(text)?.[0];
  if (spaced) return spaced;
  for (const m of text.matchAll(RUN)) {
    const value = m[0].replace(EDGES, "").replace(KEYPAD, "");
    if (value.length < 3 || value.length > 64 || isPlaceholder(value)) continue;
    if (NOT_A_VALUE.test(value) || isDateOrRange(value)) continue;
    // Digits, or groups of them as a dial's turns are read: "17-42-08"; not a count, a year or an
    // amount ("1998年", "60多岁", "3000块").
    const digits = /^\d+(?:-\d+)*$/.test(value) && !UNIT.test(text.slice(m.index + m[0].length));
    // A symbol inside letters, not an apostrophe or a hyphen ("it's", "co-op" are words).
    const mixed =
      /[A-Za-z]/.test(value) && (/\d/.test(value) || /[A-Za-z][!@#$%^&*_+=~.?]+[A-Za-z0-9]/.test(value));
    if ((digits && value.length <= 12) || mixed) return value;
  }
  return null;
}

/** The chat-wide cue: `?asked|<messages left>` → when the question was asked (answer-wait.ts). */
const KEY = /^(\?asked)\|(\d+)$/;

/** How many messages may still answer a question asked in the chat; null when none waits. */
export function messagesLeftToAnswer(cues: Readonly<Record<string, number>>): number | null {
  return openWait(cues, KEY)?.left ?? null;
}

/** The cues after a message: a question opens a wait of ASKED_REACH messages, an answer closes it. */
export function askedCuesAfter(
  cues: Readonly<Record<string, number>>,
  message: { asks: boolean; answered: boolean },
  now: number,
): Record<string, number> {
  return waitAfter(
    cues,
    KEY,
    { opens: message.asks ? "?asked" : null, answered: message.answered },
    ASKED_REACH,
    now,
  );
}
