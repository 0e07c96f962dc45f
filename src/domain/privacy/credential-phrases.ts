/**
 * Passwords said in words: a credential keyword (密码, 口令, 验证码, password, pwd, PIN, …)
 * followed, in the same clause, by a value — "我的QQ密码改成了 X", "邮箱密码 X",
 * "服务器 root 口令 X", "密码是X", "password: X", "my password is now X", `DB_PASSWORD=X`.
 * Only the value is masked, so the sentence stays readable.
 *
 * No rule set covers natural-language Chinese, so these rules are the project's own. What
 * keeps ordinary chat ("我忘记密码了", "密码怎么改", "password is wrong") untouched: a value
 * is printable ASCII without spaces, at least four characters; a plain word counts only
 * after an explicit connector (是 / 为 / 改成 / : / = / is / to) and a password keyword,
 * and never when it is a common English word; the bridge between keyword and value stays
 * inside one clause and holds no question or complaint (怎么, 忘, 错, 不, 吗, …).
 */

import { detectionText } from "../text/detection-text";
import { BRIDGE_FOREIGN, PASSWORD_FOREIGN_CJK, PASSWORD_FOREIGN_WORDS } from "./credential-foreign-words";
import { urlSpans } from "./url-spans";

export type PhraseMatch = { readonly start: number; readonly end: number; readonly id: string };

/**
 * Three kinds of keyword, by what their value looks like: a password may be a plain word
 * ("my password is hunter", after an explicit connector); a code is digits or random
 * (验证码 483920, CVV 123); a key or token is at least eight random-looking characters.
 */
type Kind = "password" | "code" | "key";

/**
 * `密 码` with spaces between its characters is the same keyword; gamers' 房密 is a room's
 * password (not 住房密集).
 */
export const PASSWORD_ZH = String.raw`密[ \t]{0,2}码|口令|暗码|PIN码|pin码|密马|秘码|蜜码|房密(?![集度封闭切布])|(?<![保机秘私隐加解严绝泄告])密吗(?=\s*[:：=是]?\s*[\x21-\x7E])`;
export const PASSWORD_EN = String.raw`password|passwd|passwrd|passwrod|pasword|passowrd|pwd|passcode|passphrase|pass\s*code|(?:wi-?fi|wlan)\s+pass`;
/** Short forms and pinyin (pw, mima): whole words only, never inside an id (`m_1pw5…`). */
export const PASSWORD_SHORT = String.raw`pw|psw|pswd|mima|mi\s?ma`;
export const CODE_ZH = `卡密|卡背面?的?三位数?|背面的?三位数?|验证码|校验码|动态码|安全码|支付码|门禁码|开门码|门锁码|取件码|提取码|短信码|激活码|兑换码`;
export const CODE_EN = String.raw`pin(?:\s*code)?|otp|2fa\s+code|verification\s+code|security\s+code|cvv|cvc|(?:door|gate|access|alarm|garage|locker|safe|lockbox|keypad|entry|padlock|bike\s+lock)\s+code|login\s+code|sms\s+code|one[-\s]?time\s+(?:code|password)|confirmation\s+code|(?:lock\s+)?combo`;
export const KEY_ZH = `密钥|秘钥|私钥|授权码|令牌`;
export const KEY_EN = String.raw`api[\s_-]?key|secret[\s_-]?key|access[\s_-]?key|private[\s_-]?key|access[\s_-]?token|auth[\s_-]?token|refresh[\s_-]?token|token|client[\s_-]?secret|secret|auth(?:orization)?\s+code`;

/** Nouns built on 密码 that are not "the password" (密码学, 密码框, 密码错误, …). */
export const NOT_THE_PASSWORD = `(?!学|机|器|箱|本|框|栏|管理器|策略|规则|长度|强度|复杂度|输入框|错误|不对|提示|保护|找回|学家)`;

/**
 * Between a Chinese keyword and its value: a few words of the same clause ("改成了",
 * "我发你私信:", "还是"), no clause punctuation, no question or complaint.
 */
/** A Chinese character of the same clause that is no question or complaint word. */
const CLAUSE_CHAR = String.raw`(?![，。！？；、,.!?;\n]|怎|忘|错|不|没|吗|呢|多少|什么|如何|哪)[^\x00-\x7F]`;
const BRIDGE_ZH = String.raw`(?<bridge>(?:${CLAUSE_CHAR}){0,8}?[\s:：=]*)`;
/**
 * Between an English keyword and its value: "for root", "of the wifi", then a connector —
 * `:`, `=`, "is", "is now", "was changed to", "set to", "to", 是, Cantonese 係 — or just a space.
 */
const BRIDGE_EN = String.raw`(?<bridge>(?:\s+(?:for|of|on|at)\s+(?:the\s+|my\s+|our\s+|your\s+)?[\w@.-]{1,30})?(?:["']?\s*(?:[:=：]|->|=>|是|为|係|系(?!统))\s*|['’]s\s+|\s+(?:(?:is|was|are|will\s+be|has\s+been|have\s+been|should\s+be)\s+)?(?:(?:now|still|currently|just|changed\s+to|set\s+to|updated\s+to|reset\s+to|became|becomes|to)\s+)*|\s*))`;
/** The value itself: printable ASCII without spaces, optionally quoted or in brackets: "pin（8264）". */
const VALUE = String.raw`["'“‘「(（]?(?<value>[\x21-\x7E]{3,200})`;

type PhraseRule = { readonly id: string; readonly pattern: RegExp; readonly kind: Kind };

const phrase = (id: string, keyword: string, bridge: string, kind: Kind): PhraseRule => ({
  id,
  pattern: new RegExp(`${keyword}${bridge}${VALUE}`, "giud"),
  kind,
});
const zh = (words: string) => `(?:${words})`;
const en = (words: string) => `(?<![A-Za-z])(?:${words})(?![A-Za-z])`;
/** `password=…`, `DB_PASSWORD: …`, `"api_key": "…"`, `export GITHUB_TOKEN=…`. */
const assigned = (words: string) => `(?<![A-Za-z0-9])[A-Za-z0-9]*[_-]?(?:${words})["']?`;
const ASSIGN = String.raw`(?<bridge>\s*[:=]\s*)`;

const RULES: readonly PhraseRule[] = [
  phrase("password-phrase", `${zh(PASSWORD_ZH)}${NOT_THE_PASSWORD}`, BRIDGE_ZH, "password"),
  phrase("password-phrase", en(PASSWORD_EN), BRIDGE_EN, "password"),
  phrase("password-phrase", `(?<![A-Za-z0-9_])(?:${PASSWORD_SHORT})(?![A-Za-z0-9_])`, BRIDGE_EN, "password"),
  phrase(
    "password-phrase",
    `(?:${PASSWORD_FOREIGN_CJK}|(?<!\\p{L})(?:${PASSWORD_FOREIGN_WORDS})(?!\\p{L}))`,
    BRIDGE_FOREIGN,
    "password",
  ),
  phrase("code-phrase", zh(CODE_ZH), BRIDGE_ZH, "code"),
  phrase("code-phrase", en(CODE_EN), BRIDGE_EN, "code"),
  phrase("key-phrase", zh(KEY_ZH), BRIDGE_ZH, "key"),
  phrase("key-phrase", en(KEY_EN), BRIDGE_EN, "key"),
  // `psk="…"` (wpa_supplicant), `wpa_passphrase=…` (hostapd): a Wi-Fi network's key.
  phrase("secret-assignment", assigned("password|passwd|pwd|pass|passphrase|psk"), ASSIGN, "password"),
  // `key = 7f3c…`, `key: …`: the word alone, then a random-looking value of eight or more.
  phrase("key-phrase", "(?<![A-Za-z0-9_])key", ASSIGN, "key"),
  phrase(
    "secret-assignment",
    assigned("secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|credentials?"),
    ASSIGN,
    "key",
  ),
];

/** Common words that follow "password is …" without being one. */
export const NOT_A_VALUE = new Set(
  (
    "about also always another bad being blank case changed correct could different does done easy empty " +
    "encrypted every expired false fine forgotten from gone good hard hashed have here hidden important " +
    "incorrect invalid just leaked long lost managed mine missing must needed never none null number " +
    "only optional please protected really required reset right safe same saved secure sent set shared " +
    "short should simple still stored string strong text that the their there this too true type " +
    "undefined unsafe used useless valid very weak what which will with wrong yours your none nope " +
    "manager managers reset field input login required policy hint change update".replace(/\s+/g, " ")
  ).split(" "),
);

/** Placeholders people write instead of the value: `<password>`, `${TOKEN}`, `xxxx`, `***`. */
export function isPlaceholder(value: string): boolean {
  return (
    /^[$<{%[(]/.test(value) ||
    /^([xX*.#?•_-])\1*$/.test(value) ||
    // `your_password`, `MY-TOKEN`: letters only. `Mysql@123`, `theDog2024!` are real passwords.
    /^(?:your|my|the)[_-]?[A-Za-z_-]*$/i.test(value) ||
    /^(?:placeholder|example|redacted|hidden|secret|password|changeit|todo|tbd|null|none|string)$/i.test(
      value,
    )
  );
}

/**
 * Trailing punctuation that ends the sentence rather than the value; a question mark too after a
 * plain word ("did you change your password yet?").
 */
export function trimValue(value: string): string {
  return value.replace(/[.,;:)\]}>"'”’」。，]+$/u, "").replace(/^([A-Za-z]+)[?？]+$/u, "$1");
}

export function looksRandom(value: string): boolean {
  return /\d/.test(value) || /[^A-Za-z0-9]/.test(value) || /[a-z].*[A-Z]|[A-Z].*[A-Z].*[a-z]/.test(value);
}

/** A connector that says what the value is: 是, a colon, "is", "changed to". */
const EXPLICIT =
  /[:=：是为成叫到]|\b(?:is|was|are|be|been|became|becomes|now)\b|\b(?:changed|set|updated|reset)\s+to\b/i;

function acceptValue(value: string, bridge: string, kind: Kind, after: string): boolean {
  const digits = /^\d+$/.test(value);
  // A luggage lock or a locker takes three digits; a password of three only where a connector
  // gives it ("行李箱密码是386"), not beside the keyword ("密码 886" is also "bye").
  const three = kind === "code" || (kind === "password" && EXPLICIT.test(bridge));
  const min = kind === "key" ? 8 : digits && three ? 3 : 4;
  if (value.length < min || isPlaceholder(value)) return false;
  // "密码 2024年改过", "验证码 6位", "要求 8-16 位": a number or a range with a unit is not the value.
  if (/^\d+(?:-\d+)?$/.test(value) && /^\s?[年月日号位个次天分秒元块条]/u.test(after)) return false;
  // `REDIS_PASSWORD\n  valueFrom:`: a key of the next line of YAML or INI, not a value.
  if (after.startsWith(":") && /^[A-Za-z_][\w-]*$/.test(value)) return false;
  // `token = getToken()`: code, not a value.
  if (/^[A-Za-z_$][\w$.]*\(/.test(value)) return false;
  // `--ask-password http://…`, `credentials=/root/.smbcred`: a link or a file holds the secret, is not it.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^(?:~|\.{1,2})?\/[\w.-]+\//.test(value)) return false;
  // A bare "to" is no connector ("run pwd to print"); "changed to", "set to" are. Nor is `'s`,
  // which is as often a possessive ("the password's strength"): after it only a random-looking
  // value counts ("my passcode's 7391").
  const explicit = EXPLICIT.test(bridge);
  // `pwd /home/me`, `password+reset`: a path, a URL or a search term, not a value.
  // `门禁密码#2580`, `*0707*`: digits set off by the keypad's own symbols are a value.
  if (!explicit && !/^[A-Za-z0-9]/.test(value) && !/^[#*]+\d/.test(value)) return false;
  if (kind === "key") return !digits && looksRandom(value);
  if (looksRandom(value)) return true;
  return kind === "password" && explicit && !NOT_A_VALUE.has(value.toLowerCase());
}

/** Every keyword + value in `text`; the spans cover the value only. */
export function findPhraseCredentials(text: string): PhraseMatch[] {
  const urls = urlSpans(text);
  const out: PhraseMatch[] = [];
  for (const r of RULES) {
    for (const m of text.matchAll(r.pattern)) {
      const indices = m.indices?.groups?.value;
      const raw = m.groups?.value;
      // Inside a link only the URL rules speak (`?q=password+reset` is a search).
      if (!indices || raw === undefined || urls.some(([s, e]) => m.index >= s && m.index < e)) continue;
      const value = trimValue(raw);
      const after = text.slice(indices[0] + value.length, indices[0] + value.length + 3);
      if (!acceptValue(value, m.groups?.bridge ?? "", r.kind, after)) continue;
      out.push({ start: indices[0], end: indices[0] + value.length, id: r.id });
    }
  }
  return out;
}

/**
 * A message that ends on a credential keyword and its connector, with the value still to
 * come: "我家wifi密码是", "服务器密码：", "the wifi password is", "token:". People often send
 * the value as their next message, which alone holds no keyword (announced-credential.ts).
 */
// A countersign (暗号) is announced as a password is: "今晚的暗号是", then the words
// (docs/decisions/0730-passwords-in-chinese-words.md).
const ANNOUNCED_ZH = `(?:(?:${PASSWORD_ZH}|暗号|暗號)${NOT_THE_PASSWORD}|${CODE_ZH}|${KEY_ZH})`;
const ANNOUNCED_EN = `(?:${en(`${PASSWORD_EN}|${CODE_EN}|${KEY_EN}`)}|(?<![A-Za-z0-9_])(?:${PASSWORD_SHORT}))`;
const ANNOUNCEMENTS: readonly RegExp[] = [
  // A few words of the clause, no question or complaint, then 是 / 为 / 改成 / a colon, and the end.
  new RegExp(
    String.raw`${ANNOUNCED_ZH}(?:${CLAUSE_CHAR}){0,8}?\s*(?:是|为|改成了?|换成了?|[:：=])\s*$`,
    "iu",
  ),
  new RegExp(
    String.raw`${ANNOUNCED_EN}(?:\s+(?:for|of|on|at)\s+(?:the\s+|my\s+|our\s+|your\s+)?[\w@.-]{1,30})?\s*(?:[:=：]|\s(?:is|was|is\s+now|are)|\s(?:changed|set|updated|reset)\s+to)\s*$`,
    "iu",
  ),
];

export function announcesCredential(text: string): boolean {
  const t = detectionText(text).text.trim();
  return ANNOUNCEMENTS.some((re) => re.test(t));
}

/**
 * The value a message holds when it is nothing but a value: one printable ASCII token of three
 * to two hundred characters, optionally quoted, not a placeholder. Null otherwise.
 */
export function bareValue(text: string): string | null {
  const m = /^["'“‘「]?([\x21-\x7E]{3,200}?)["'”’」]?$/u.exec(text.trim());
  const value = m?.[1];
  return value === undefined || isPlaceholder(value) ? null : value;
}
