/**
 * A password asked for in a chat and answered by whoever knows it: "wifi密码多少？", then
 * "dx2024wifi" or "admin123 没改过" from another member
 * (docs/decisions/0820-a-value-given-in-answer.md).
 * Neither message holds a keyword with its value. The chat object's cues (announced-credential.ts)
 * keep, for the whole chat, that a message asked for one; one of the next ASKED_REACH messages
 * within the cue window that holds a token shaped like a password — three digits or more, or
 * letters with digits or a symbol — has that token masked, and the question is answered. Words
 * ("问前台", "8位数字", "same"), links, times, prices and versions are no value.
 */
import { detectionText } from "../text/detection-text";
import { CODE_ZH, isPlaceholder, PASSWORD_SHORT, PASSWORD_ZH } from "./credential-phrases";

/** How many messages after the question may answer it: a group chats on in between. */
export const ASKED_REACH = 5;

/**
 * What is asked for: the password and code words the rules read (credential-phrases.ts), 暗号,
 * wifi, and a lock, whose code is what "多少" asks; not 密码学, 密码箱, 密码锁.
 */
const SECRET = String.raw`(?:(?:${PASSWORD_ZH}|暗号|${CODE_ZH}|wi-?fi)(?!学|箱|锁|本|器)|(?<![A-Za-z])(?:${PASSWORD_SHORT}|mm|pwd|pin)(?![A-Za-z])|锁)`;
const ASKING = new RegExp(
  [
    // Not an amount: "宽带wifi多少钱", "锁了多少次".
    String.raw`${SECRET}[^，。！!,.\n]{0,6}?(?:多少|几多|啥|什么|咩|几位?|哪个)(?!\s*(?:钱|块|元|米|兆|个|人|度|天|次|岁|斤|分|号|楼|平|万|千|(?:m|g|mb|gb|k)\b))`,
    String.raw`${SECRET}\s*(?:是|系|呢)?\s*[?？]`,
    String.raw`(?:知道|记得|有人有|谁有|求)[^，。！!,.\n]{0,10}?${SECRET}|${SECRET}[^，。！!,.\n]{0,4}?(?:谁知道|谁有|有人知道)`,
    // An order to send it: "密码发我", "验证码给我说下".
    String.raw`${SECRET}\s*(?:发|给|告诉|说|报|私)(?:我|一下|下)`,
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
/** Not a value: a link, a command, a mention, a time, a date, a price, a version or a decimal. */
const NOT_A_VALUE = /:\/\/|^www\.|^[/@#¥$]|^\d{1,2}:\d{2}|^\d+[/-]\d+([/-]\d+)?$|^v?\d+(?:\.\d+)+[A-Za-z]*$/i;

/**
 * The value a message answers with: its first run shaped like a password — three digits or more,
 * or letters with digits, or letters with a symbol inside — or null when it has none.
 */
export function answeredValue(text: string): string | null {
  for (const m of text.matchAll(RUN)) {
    // A keypad's star and hash are how the code is typed, not part of what is kept: "*6028", "1379#".
    const value = m[0].replace(EDGES, "").replace(/^\*+|#+$/g, "");
    if (value.length < 3 || value.length > 64 || isPlaceholder(value) || NOT_A_VALUE.test(value)) continue;
    const digits = /^\d+$/.test(value);
    // A symbol inside letters, not an apostrophe or a hyphen ("it's", "co-op" are words).
    const mixed =
      /[A-Za-z]/.test(value) && (/\d/.test(value) || /[A-Za-z][!@#$%^&*_+=~.?]+[A-Za-z0-9]/.test(value));
    if ((digits && value.length <= 12) || mixed) return value;
  }
  return null;
}

/** The key of the chat-wide cue: `?asked|<messages left>` → when the question was asked. */
const KEY = /^\?asked\|(\d+)$/;

/** How many messages may still answer a question asked in the chat; null when none waits. */
export function messagesLeftToAnswer(cues: Readonly<Record<string, number>>): number | null {
  for (const key of Object.keys(cues)) {
    const left = KEY.exec(key)?.[1];
    if (left !== undefined) return Number(left);
  }
  return null;
}

/**
 * The cues after a message: a question opens a new wait; a message that answered, or the last
 * the wait allows, closes it; any other counts down, the question's time kept.
 */
export function askedCuesAfter(
  cues: Readonly<Record<string, number>>,
  text: string,
  answered: boolean,
  now: number,
): Record<string, number> {
  const rest = Object.fromEntries(Object.entries(cues).filter(([key]) => !KEY.test(key)));
  if (asksForCredential(text)) return { ...rest, [`?asked|${ASKED_REACH}`]: now };
  const left = messagesLeftToAnswer(cues);
  const at = cues[`?asked|${left}`];
  if (answered || left === null || left <= 1 || at === undefined) return rest;
  return { ...rest, [`?asked|${left - 1}`]: at };
}
