/**
 * A password asked for in a chat and answered with the value alone, by whoever knows it: "wifi密码
 * 多少？", then "dx2024wifi" from another member (docs/decisions/0820-a-value-given-in-answer.md).
 * Neither message holds a keyword with its value. The chat object's cues (announced-credential.ts)
 * keep, for the whole chat, that a message asked for one; one of the next ASKED_REACH messages
 * within the cue window that is nothing but a token shaped like a password — four to sixty-four
 * printable characters with a digit, or letters with a symbol, maybe after 就 / 是 — is masked,
 * and the question is answered. Words ("问前台", "8位数字", "same") are no value.
 */
import { detectionText } from "../text/detection-text";
import { isPlaceholder } from "./credential-phrases";

/** How many messages after the question may answer it: a group chats on in between. */
export const ASKED_REACH = 5;

/** What is asked for; not 密码学, 密码箱, 密码锁. */
const SECRET = String.raw`(?:密码|口令|暗号|验证码|门禁码|开门码|取件码|pin码?|wi-?fi)(?!学|箱|锁|本|器)`;
const ASKING = new RegExp(
  [
    String.raw`${SECRET}[^，。！!,.\n]{0,6}?(?:多少|啥|什么|几位?|哪个)`,
    String.raw`${SECRET}\s*(?:是|呢)?\s*[?？]`,
    String.raw`(?:知道|记得|有人有|谁有|求)[^，。！!,.\n]{0,10}?${SECRET}`,
    String.raw`\bwhat(?:'s|\s+is|s)\s+the\s+(?:wi-?fi\s+|door\s+|gate\s+)?(?:password|pw|pass|code|pin)\b`,
    String.raw`\b(?:wi-?fi\s+)?(?:password|pw|pwd|passcode|pin)\s*\?`,
  ].join("|"),
  "iu",
);

/** Whether a message asks for a password or a code. */
export function asksForCredential(text: string): boolean {
  return ASKING.test(detectionText(text).text);
}

const ANSWER = /^(?:就是?|是|[:：])?\s*["'“‘「]?([\x21-\x7E]{4,64}?)["'”’」]?\s*[啊哈呀吧哦~～]*$/u;

/** The value a message answers with when it is nothing but a password-shaped token; null otherwise. */
export function answeredValue(text: string): string | null {
  const value = ANSWER.exec(text.trim())?.[1];
  if (value === undefined || isPlaceholder(value)) return null;
  const shaped = /\d/.test(value) || (/[A-Za-z]/.test(value) && /[^A-Za-z0-9]/.test(value));
  return shaped ? value : null;
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
