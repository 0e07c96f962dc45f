/**
 * Passwords in the other orders people write them (credential-phrases.ts reads keyword then
 * value): the value first ("Xy12ab34 是我邮箱的密码", "hunter22 is my wifi password"), a login
 * pair ("账号 zhangsan 密码 abc", "user: bob / pw: abc"), a comma or particle between keyword
 * and value ("密码，Xy12ab34", "验证码啊 483920"), and pinyin slang ("mm是 Xy12ab34"). Only the
 * value is masked. A value standing alone must look like one (a digit, a symbol or mixed case);
 * in a login pair, whatever follows the password keyword is the password.
 */

import {
  CODE_ZH,
  isPlaceholder,
  KEY_ZH,
  looksRandom,
  NOT_THE_PASSWORD,
  PASSWORD_ZH,
  type PhraseMatch,
  trimValue,
} from "./credential-phrases";
import { urlSpans } from "./url-spans";

const KEYWORD_ZH = `(?:(?:${PASSWORD_ZH})${NOT_THE_PASSWORD}|${CODE_ZH}|${KEY_ZH})`;
const VALUE = String.raw`["'“‘「]?(?<value>[\x21-\x7E]{3,64})`;

type FormRule = { readonly id: string; readonly pattern: RegExp; readonly anyValue: boolean };

const form = (id: string, source: string, anyValue = false, flags = "giud"): FormRule => ({
  id,
  pattern: new RegExp(source, flags),
  anyValue,
});

const RULES: readonly FormRule[] = [
  // Xy12ab34 是我邮箱的密码 — not "…是密码吗"
  form(
    "password-phrase",
    String.raw`(?<![\x21-\x7E])["'“‘「]?(?<value>[\x21-\x7E]{4,64}?)["'”’」]?\s*(?:就是|这个是|这是|是|为)[^，。！？；,.!?;\n]{0,12}?${KEYWORD_ZH}(?![吗么呢？?])`,
  ),
  // hunter22 is my wifi password
  form(
    "password-phrase",
    String.raw`(?<![\x21-\x7E])(?<value>[\x21-\x7E]{4,64})\s+(?:is|was|=)\s+(?:my|the|our|his|her|their|your)\s+(?:[\w-]+\s+){0,2}?(?:password|passcode|pin|pwd|passphrase)\b(?!\s*\?)`,
  ),
  // 账号 zhangsan 密码 abc; user: bob / pw: abc; QQ号 123456789 密 qwe#456 (trading shorthand)
  form(
    "login-pair",
    String.raw`(?:账号|帐号|账户|帐户|用户名|登录名|登陆名|学号|工号|手机号|邮箱|QQ号|qq号|Q号|游戏号|大号|小号|\b(?:user(?:name)?|login|acct|account|id))\s*[:：=]?\s*(?:是|为)?\s*[\x21-\x7E]{2,64}\s*[,，/、;；|\s]\s*(?:密码|口令|密(?![码碼钥切集度封])|\b(?:pwd|pw|password|pass|mm|mima)(?![A-Za-z]))\s*[:：=]?\s*(?:是|为)?\s*${VALUE}`,
    true,
  ),
  // 用户名 root / Passw0rd!, user: admin/admin: an account, a slash, then its password
  form(
    "login-pair",
    String.raw`(?:账号|帐号|账户|帐户|用户名|登录名|登陆名|\b(?:user(?:name)?|login|acct|account))\s*[:：=]?\s*(?:是|为)?\s*[\x21-\x2E\x30-\x7E]{2,64}?\s*/\s*${VALUE}`,
    true,
  ),
  // admin / hx@admin2019, root/Tp9xLm2: a default login name, a slash, then a random-looking password;
  // not `/u:Administrator /p:%PASS%`, where the slash opens the next flag
  form(
    "login-pair",
    String.raw`(?<![\w./-])(?:admin|administrator|root|sa|postgres|ubuntu|pi|guest)(?:\s+/\s+|/)${VALUE}`,
  ),
  // 跳板机: ops / Jmp_88kLq0 — a label, a user, a spaced slash, then a random-looking password
  form(
    "login-pair",
    String.raw`[:：][^\S\n]*[A-Za-z][\w.-]{1,30}[^\S\n]+/[^\S\n]+(?=[\x21-\x7E]{6})${VALUE}`,
  ),
  // zhang_hy / Hy19980321: a lower-case login name, a spaced slash, then a password with capitals or
  // symbols as well as digits (case-sensitive: "React / Vue3.0" names two things)
  form(
    "login-pair",
    String.raw`(?<![\w./-])[a-z][a-z0-9_.-]{2,30}[^\S\n]+/[^\S\n]+(?=[\x21-\x7E]*\d)(?=[\x21-\x7E]*[A-Z#@!$%&*_.-])(?=[\x21-\x7E]{6})${VALUE}`,
    false,
    "gud",
  ),
  // 账密 nightowl77 / Rb5520q: account and password in one word, then both values
  form(
    "login-pair",
    String.raw`(?:账密|帐密)\s*[:：=]?\s*(?:是|为)?\s*[\x21-\x7E]{2,64}?\s*[,，/、;；|\s]\s*${VALUE}`,
    true,
  ),
  // 密:Ha88zz — 密 alone (no character of a word before it: 保密, 秘密) with a colon
  form("password-phrase", String.raw`(?<!\p{Script=Han})密\s*[:：]\s*${VALUE}`),
  // 密码，Xy12ab34; 验证码啊 483920; 密码呢是 abc123
  form(
    "password-phrase",
    String.raw`${KEYWORD_ZH}[啊呀哈嘛呢吧哦喔嗯~～]*(?:[，,~～]\s*|\s*[是为:：]\s*|\s+)(?:是\s*)?${VALUE}`,
  ),
  // mm是 Xy12ab34, mima: abc123, mm shi abc123
  form("password-phrase", String.raw`(?<![A-Za-z0-9])(?:mm|mi\s?ma)\s*(?:是|为|shi|wei|[:：=])\s*${VALUE}`),
  form("password-phrase", String.raw`(?<![A-Za-z0-9])(?:mm|mima)\s+${VALUE}`),
  // 客户端授权码 JKTBXRPLQNWMDSZE: QQ and 163 mail's codes for mail clients are sixteen letters
  form("code-phrase", String.raw`授权码\s*(?:是|为|[:：=])?\s*(?<value>[A-Za-z]{16})(?![A-Za-z])`, true),
  // 提取码 xcib: share and pickup codes are short and need not look random
  form(
    "code-phrase",
    String.raw`(?:提取码|取件码|兑换码|激活码|邀请码)\s*(?:是|为|[:：=])?\s*(?<value>[A-Za-z0-9-]{4,32})(?![A-Za-z0-9])`,
    true,
  ),
];

/** Every value in `text` said in one of these orders; spans cover the value only. */
export function findPhraseForms(text: string): PhraseMatch[] {
  const urls = urlSpans(text);
  const out: PhraseMatch[] = [];
  for (const r of RULES) {
    for (const m of text.matchAll(r.pattern)) {
      const at = m.indices?.groups?.value;
      const raw = m.groups?.value;
      if (!at || raw === undefined || urls.some(([s, e]) => at[0] >= s && at[0] < e)) continue;
      const value = trimValue(raw);
      if (value.length < 3 || isPlaceholder(value)) continue;
      if (!r.anyValue && !(looksRandom(value) && value.length >= 4)) continue;
      out.push({ start: at[0], end: at[0] + value.length, id: r.id });
    }
  }
  return out;
}
