/**
 * A message that tells of a new secret of the sender's without giving it: "路由器后台我重新设了",
 * "平板的锁屏我换了", "那个压缩包我加密了". People send the value next, often after others have
 * spoken, with nothing around it; alone it is a bare token no rule reads as a password. The chat
 * object keeps a cue for the teller's next message, which is masked when it is one ASCII token
 * that reads as a value (`toldValue`; announced-credential.ts;
 * docs/decisions/1060-a-secret-told-of-before-it-is-sent.md).
 */
import { detectionText } from "../text/detection-text";
import { bareValue, CODE_ZH, KEY_ZH, PASSWORD_ZH } from "./credential-phrases";

/** What a secret opens or is: a password's words, a login, a lock, a wifi, an archive, an account. */
const THING = String.raw`(?:${PASSWORD_ZH}|${CODE_ZH}|${KEY_ZH}|暗号|登录|登陆|开机|锁屏|解锁|开锁|wi-?fi|无线网|后台|锁(?!屏)|保险柜|保险箱|压缩包|网盘|账号|帐号)`;
/** The thing's look, name or address, not its secret: "锁屏壁纸", "鎖屏桌布", "wifi名字", "后台地址". */
const NOT_ITS_SECRET = String.raw`(?!\s*(?:的\s*)?(?:壁纸|桌布|名|界面|样式|皮肤|主题|头像|昵称|铃声|背景|图|位置|地址|网址|ip))`;
/** Words of the same clause between the thing and the change: no negation or question. */
const BETWEEN = String.raw`(?:(?![，。！？；,.!?;\n]|没|不|别|吗|呢|忘)[^\n]){0,12}?`;
/** Changed, set, reset or locked, done: "改了", "重新设了", "换成数字的了", "加密了", "上了锁". */
const CHANGED = String.raw`(?:(?:重新设|重设|重置|设|改|换|更新)(?:过|好)?了|(?:改|换|设)成(?:[^，。！？\n]{0,6}?的)?了|加密了|加了?锁|上了?锁|锁上了)`;

const TOLD = [
  new RegExp(`${THING}${NOT_ITS_SECRET}${BETWEEN}${CHANGED}`, "iu"),
  // The change first: "给奶奶手机设了锁屏", "网盘加了个锁".
  new RegExp(String.raw`(?:设|加|上|换)了(?:个|一个|新的)?${THING}${NOT_ITS_SECRET}`, "iu"),
];

/** A value given in the same message after the change: "改成了 Hk7731pp", "叫 home5g". */
const VALUE_AFTER = /[A-Za-z0-9][\x21-\x7E]{3,}/u;

export function tellsOfANewSecret(text: string): boolean {
  const read = detectionText(text).text;
  if (/[?？]|吗|呢/.test(read)) return false;
  for (const told of TOLD) {
    const m = told.exec(read);
    if (m && !VALUE_AFTER.test(read.slice(m.index + m[0].length))) return true;
  }
  return false;
}

/**
 * The teller's next message as the value, when it is one token that reads as one: with a digit, or
 * of eight characters or more, and not a laugh or a cheer repeated ("hhh", "666", "2333", "lol").
 * After a statement with no "是", the next message is as often chatter.
 */
export function toldValue(text: string): string | null {
  const value = bareValue(text);
  if (value === null || /^(.{1,2})\1+$/iu.test(value) || /^23{2,}$/u.test(value)) return null;
  return /\d/u.test(value) || value.length >= 8 ? value : null;
}
