/**
 * A game server's sign-in command pasted into a group: "/login 苦瓜炒蛋", "/register Kx92pw Kx92pw",
 * "/changepassword old new", and the short forms Chinese servers' plugins take (/l, /reg, /dl 登录,
 * /zc 注册) (docs/decisions/0850-game-server-sign-in-and-chinese-word-forms.md); a server's
 * "/login <user> <password>" too (docs/decisions/0960-chinese-word-values-pointed-at.md). Its
 * arguments are the account's password whatever they look like, Chinese words included. A
 * placeholder ("<密码>", "你的密码") or talk after the command ("/login 没反应啊") is no value; a
 * link's "/login" is no command.
 */
import { isHanValue, PREDICATE_START } from "./credential-han-words";
import { isPlaceholder, type PhraseMatch } from "./credential-phrases";

/** The command and its one or two arguments; not a path of a link ("example.com/login"). */
const SIGN_IN =
  /(?<![\w/.:-])\/(?:(?:login|l|dl|denglu)(?<one>(?:[ \t]+[^\s，。,]+){1,2})|(?:register|reg|zc|zhuce|changepassword|changepass|changepw)(?<two>(?:[ \t]+[^\s，。,]+){1,2}))/giu;
/** A word that stands for the password rather than being one. */
const STANDS_FOR =
  /^(?:密码|密碼|你的密码|你的密碼|自己的密码|新密码|旧密码|原密码|pass(?:word)?|pw|pwd|xxx+|\*+)$/i;

/** Every password a sign-in command in `text` gives; spans cover each argument. */
export function findSignInValues(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(SIGN_IN)) {
    const args = m.groups?.one ?? m.groups?.two ?? "";
    let at = m.index + m[0].length - args.length;
    // Each argument is a password while they are values: "/reg 青椒肉丝 青椒肉丝", not "没反应啊 卡住了".
    for (const word of args.split(/([ \t]+)/)) {
      if (word.trim() !== "") {
        if (!isValue(word)) break;
        out.push({ start: at, end: at + word.length, id: "command-line" });
      }
      at += word.length;
    }
  }
  return out;
}

function isValue(word: string): boolean {
  if (isPlaceholder(word) || STANDS_FOR.test(word)) return false;
  // Chinese words: a phrase, not talk after the command ("没反应啊", "以后怎么传送").
  if (/\p{Script=Han}/u.test(word)) return !PREDICATE_START.test(word) && isHanValue(word);
  return /^[\x21-\x7E]{3,64}$/.test(word);
}
