/**
 * A value corrected in the message after it: "wifi密码 Qx81!vv20", then "刚才打错了，是 Qx81!vv02".
 * The correction names no keyword, and its value may be a plain-looking token the reader leaves,
 * so the chat object's cues (announced-credential.ts) remember that the sender's last message
 * held a masked value, and read this message as a correction of it
 * (docs/decisions/0770-a-corrected-value.md).
 */
import { bareValue } from "./credential-phrases";
import { valueAlone } from "./credential-value-alone";

/** "刚才打错了，是 X", "不对 应该是 X", "打错了 X", "sorry typo, it's X". */
const CORRECTION =
  /^(?:(?:刚才|剛才|刚刚|剛剛|上面|前面)?(?:打错|打錯|输错|輸錯|写错|寫錯|发错|發錯)了?|不对|不對|更正|纠正|糾正|sorry|oops|typo|my\s+bad)(?:[\s,，:：.。!！~～]|sorry|typo)*(?:应该|應該)?(?:是|为|為|[:：]|it['’]?s|is)?\s*(?<rest>\S.*)$/iu;

/** The corrected value `text` gives, or null when it corrects nothing that looks like one. */
export function correctedValue(text: string): string | null {
  const rest = CORRECTION.exec(text.trim())?.groups?.rest;
  if (!rest) return null;
  // The value may follow what was wrong with the first: "不对 首字母大写 Ab123456" (decision 0830).
  const [first = "", ...later] = rest.split(/[\s，,。]/u);
  // A value has a digit or a symbol: "明天不是今天", "周五" and "哈哈" correct something else.
  const shaped = (token: string) => /[\d!@#$%^&*_.~-]/.test(token);
  if (shaped(first)) return bareValue(first) ?? valueAlone(first);
  // After words, only a printable token: "下午3点" is a time, not the value.
  for (const token of later.slice(0, 2)) if (shaped(token) && bareValue(token)) return bareValue(token);
  return null;
}
