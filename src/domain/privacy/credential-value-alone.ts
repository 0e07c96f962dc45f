/**
 * A message that is nothing but a value, in the forms credential-sentence-values.ts reads inside
 * a sentence: what the sender's next message after an announcement ("我家wifi密码是") may be
 * (announced-credential.ts). One ASCII token is credential-phrases.ts's `bareValue`.
 */
import { detectionText } from "../text/detection-text";
import { describedAlone } from "./credential-described-values";
import { NOT_A_STATEMENT, NOT_PASSPHRASE_WORDS, NUMERALS } from "./credential-sentence-values";

/** Chat that answers an announcement without giving the value: "算了不告诉你", "哈哈", "thanks". */
const NOT_ALONE_ZH =
  /我|你|他|她|的|吗|呢|吧|什么|怎么|忘|不|算了|等|再说|找|看|查|想|问|稍|马上|哈|呵|嘿|嘻|嗯|好的|谢谢|收到|知道|行|对/;
const NOT_ALONE_EN = new Set(
  "ok okay thanks thank thx so much lol haha sorry wait never mind nvm yes no sure got it later hmm what".split(
    " ",
  ),
);

/**
 * The value a message holds when, right after an announcement ("我家wifi密码是",
 * announced-credential.ts), it is nothing but a value in one of these forms: quoted, a passphrase
 * of ASCII words, Chinese numerals, digit groups, a description ("八个八", "all zeros",
 * credential-described-values.ts), or Chinese words (alone, or with digits or letters). Null when it reads as an answer instead ("算了不告诉你", "你猜", "ok thanks").
 */
export function valueAlone(text: string): string | null {
  const said = text.trim();
  const read = detectionText(said).text;
  if (read.length > 40 || /[\n，。！？；?!]/.test(read) || NOT_A_STATEMENT.test(read)) return null;
  const quoted = /^["'“‘「『](.{2,38})["'”’」』]$/u.exec(said)?.[1];
  if (quoted !== undefined) return quoted.trim() && !/已隐藏/.test(quoted) ? said : null;
  if (describedAlone(read)) return said;
  if (/^[\x21-\x7E]+(?: [\x21-\x7E]+){1,7}$/.test(read)) {
    const words = read.toLowerCase().split(" ");
    const listed = words.some((w) => NOT_PASSPHRASE_WORDS.has(w) || NOT_ALONE_EN.has(w));
    return !listed && (words.length >= 3 || /\d/.test(read)) ? said : null;
  }
  if (new RegExp(`^[${NUMERALS}]{4,16}$`, "u").test(read)) return said;
  if (/^\d{1,4}(?:[ -]\d{1,4}){1,5}$/.test(read)) return said;
  const han = /^[\p{Script=Han}A-Za-z0-9]{4,20}$/u.test(read) && /\p{Script=Han}/u.test(read);
  return han && !NOT_ALONE_ZH.test(read) && !/^(.)\1+$/u.test(read) ? said : null;
}
