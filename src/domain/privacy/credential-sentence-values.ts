/**
 * Values that are not one ASCII token right after the keyword (credential-phrases.ts and
 * credential-phrase-forms.ts read those), the way people also write them
 * (docs/decisions/0500-credential-values-in-any-script.md):
 *
 * - a quoted value in any script: "我的密码是‘小狗汪汪’", 口令：「春眠不觉晓」;
 * - a passphrase of several words after a colon: "password: correct horse battery staple";
 * - digits as Chinese numerals: "取款密码 九八七六五四", "PIN码 壹贰叁肆";
 * - a dial lock's turns: "左4圈 右6圈 左2圈";
 * - a value further on in the sentence than one clause reaches: "密码跟淘宝一样，都是 Lily@0520",
 *   "password is the same as my birthday 19900520".
 *
 * Ordinary talk about passwords stays untouched because each form asks for what a value has
 * and instructions or complaints lack: quotes, digits beside words, a run of four numerals, or
 * a token that mixes letters and digits (or six digits, or keypad symbols and digits) after a
 * connector (是 / 为 / : / = / is). Only the value is masked.
 */

import { findHanPhrases } from "./credential-han-phrases";
import {
  CODE_EN,
  CODE_ZH,
  isPlaceholder,
  KEY_EN,
  KEY_ZH,
  NOT_A_VALUE,
  NOT_THE_PASSWORD,
  PASSWORD_EN,
  PASSWORD_ZH,
  type PhraseMatch,
} from "./credential-phrases";
import { urlSpans } from "./url-spans";

const PASSWORD_WORDS = `(?:(?:${PASSWORD_ZH})${NOT_THE_PASSWORD}|(?<![A-Za-z])(?:${PASSWORD_EN}|pin)(?![A-Za-z]))`;
const ANY_WORDS = `(?:${PASSWORD_WORDS}|${CODE_ZH}|${KEY_ZH}|(?<![A-Za-z])(?:${CODE_EN}|${KEY_EN})(?![A-Za-z]))`;
/** Words of the clause between keyword and value: no clause punctuation, no quote. */
const CLAUSE = String.raw`[^\n，。！？；,.!?;"'“”‘’「」『』《》]`;
const CONNECTOR = String.raw`(?:是|为|為|叫|改成了?|换成了?|设成了?|[:：=]|\b(?:is|was|are|be)\b|['’]s\b)`;
const QUOTES: Readonly<Record<string, string>> = {
  "“": "”",
  "‘": "’",
  "「": "」",
  "『": "』",
  '"': '"',
  "'": "'",
};
/** A question or a complaint about the password, not a value: "密码是不是…", "password is wrong". */
export const NOT_A_STATEMENT = /忘|错|怎|吗|是不是|什么|哪|如何|多少|\b(?:wrong|forgot|what|which|how)\b/i;
export const NUMERALS = "零〇一二三四五六七八九幺两壹贰叁肆伍陆柒捌玖";
/** A number followed by one of these counts something ("六个数", "三次"); it is no value. */
const UNIT = /^[个位次年月日号天点分秒块元万千百十亿岁条遍周届级层楼人美]/u;
/** Instruction and filler words: "password: ask the admin" is where to find it, not it. */
export const NOT_PASSPHRASE_WORDS = new Set(
  (
    "a an the to of in on at by via from with is are be see ask use check same as before please " +
    "your my our their his her it this that yes no not none changed reset email admin owner " +
    "sticker vault manager later below above here there now still currently just ok okay"
  ).split(" "),
);
const NOT_PASSPHRASE_ZH = /请|问|找|联系|见|跟|和|一样|同|看|发|私聊|管理员|群主/;

const rx = (source: string) => new RegExp(source, "giud");
/** Four or more characters typed one by one, a space between each. */
const SPELLED = /^(?:[\x21-\x7E] ){3,}[\x21-\x7E](?=\s|$)/;

/** Keyword, a few words of its clause and a connector, then a quoted value. */
const QUOTED = rx(
  String.raw`${ANY_WORDS}(?<bridge>${CLAUSE}{0,12}?)(?<connector>${CONNECTOR})?\s*(?<open>[“‘「『"'])`,
);
/**
 * A password keyword, a colon (or 是, is), then the clause: "password: correct horse battery
 * staple", "密码是 h u n t e r 2", "my pin is four three two one".
 */
const COLON = rx(
  String.raw`${PASSWORD_WORDS}(?<bridge>${CLAUSE}{0,8}?)\s*(?<connector>(?:\bis\s*)?[:：=]|是|为|為|\b(?:is|was)\b)\s*(?<value>[^\n，。！？；,!?;"“”{}[\]<>]{2,48})`,
);
/**
 * A keyword, then within the clause a run of four or more Chinese numerals, or digits in
 * groups ("73 19 48", "12-38-04"), as a safe's or a lock's combination is said.
 */
const CHINESE_DIGITS = rx(
  String.raw`(?:${PASSWORD_WORDS}|${CODE_ZH})(?<bridge>${CLAUSE}{0,12}?)(?<value>[${NUMERALS}]{4,16}|(?<![\d-])(?!(?:19|20)\d\d-)\d{1,4}(?:[ -]\d{1,4}){2,5})(?![\d-])`,
);
/** Words that describe a password rather than being one: "is 4 digits", "is at least 8 characters long". */
const DESCRIBES_EN =
  /\b(?:digits?|characters?|chars?|letters?|numbers?|symbols?|long|length|least|most|minimum|maximum|same|different|case|sensitive|required|wrong|correct|expired|changed)\b/i;
const DESCRIBES =
  /我|你|他|她|的|了|数字|位|字母|大小写|区分|一样|相同|同|生日|名字|拼音|手机|号码|默认|初始|统一|设置|公司|管理员|请|问|找|联系|忘|错|吗|呢|什么|怎|多少|哪/;
/** Typing on a keypad: "要按 4471 才能进", "输入 *520*9736". */
const TYPED = "按|输入|敲";
const PIN_WORD = /pin|passcode|门禁|开锁|开门|解锁/i;
/**
 * A keyword, then the rest of its sentence (commas included) up to 80 characters; a `!` or `?`
 * inside a token (`Qwe!2345`) ends nothing. English code and key words are left out: "token
 * limit is 128000" counts, it hides nothing.
 */
const SENTENCE = rx(
  String.raw`(?<keyword>${PASSWORD_WORDS}|${CODE_ZH}|${KEY_ZH}|开锁|开门|解锁)(?<rest>(?:[^\n。！？!?]|[!?](?=[\x21-\x7E])){1,80})`,
);

/** Every value in `text` in one of these forms; spans cover the value only. */
export function findSentenceValues(text: string): PhraseMatch[] {
  const urls = urlSpans(text);
  const found = [
    ...quoted(text),
    ...colonPhrases(text),
    ...chineseDigits(text),
    ...findHanPhrases(text),
    ...dialCombinations(text),
    ...furtherOn(text),
  ];
  const skipped = [...urls, ...markupSpans(text)];
  // A value in title marks of its own ("口令改成了《小城故事》") is judged from before its 《.
  const titleAt = (f: PhraseMatch) => (text[f.start - 1] === "《" ? f.start - 1 : f.start);
  return found.filter(
    (f) => !skipped.some(([s, e]) => f.start >= s && f.start < e) && !inTitle(text, titleAt(f)),
  );
}

/**
 * Between keyword and value, English words only as "for root", "of the wifi": in "password
 * manager: Bitwarden" the keyword names something else.
 */
function bridgeHolds(bridge: string): boolean {
  if (NOT_A_STATEMENT.test(bridge)) return false;
  return !/[A-Za-z]/.test(bridge) || /^\s*(?:for|of|on|at)\s/i.test(bridge);
}

/** Mentions and CQ codes in a message's text (`<qqbot-at-user id="…" />`, `[CQ:at,qq=…]`): markup, not values. */
function markupSpans(text: string): [number, number][] {
  return [...text.matchAll(/<[^<>\n]{1,200}>|\[CQ:[^\]\n]{0,200}\]/g)].map((m) => [
    m.index,
    m.index + m[0].length,
  ]);
}

/** Inside 《…》 a keyword is part of a title (《达芬奇密码》), and what follows is about the work. */
function inTitle(text: string, at: number): boolean {
  const before = text.slice(0, at);
  return before.lastIndexOf("《") > before.lastIndexOf("》");
}

function quoted(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(QUOTED)) {
    const open = m.groups?.open ?? "";
    const bridge = m.groups?.bridge ?? "";
    // Quotes right after the keyword, or after a connector: "口令「…」", "密码是‘…’".
    if (!bridgeHolds(bridge) || (!m.groups?.connector && bridge.trim() !== "")) continue;
    const start = m.index + m[0].length;
    const end = text.indexOf(QUOTES[open] ?? open, start);
    const value = end < 0 ? "" : text.slice(start, end).trim();
    if (value.length < 2 || end - start > 40 || /已隐藏|\n/.test(value) || !/[\p{L}\p{N}]/u.test(value))
      continue;
    out.push({ start, end, id: "password-phrase" });
  }
  return out;
}

function colonPhrases(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(COLON)) {
    const at = m.indices?.groups?.value;
    const raw = m.groups?.value ?? "";
    // "pwd 是 K 7 m 9 p 2 x Q 中间没空格哈": characters spelled out one by one are the value, the remark is not.
    const value = SPELLED.exec(raw)?.[0] ?? raw.trimEnd();
    if (!at || !bridgeHolds(m.groups?.bridge ?? "") || !isPassphrase(value)) continue;
    // After 是 or "is" a clause may describe the password instead ("密码是 6 位数字", "is too weak").
    const colon = /[:：=]/.test(m.groups?.connector ?? "");
    const words = value.split(/\s+/).map((w) => w.toLowerCase());
    // …or end on a remark of its own ("密码是 Ab12cd34 记一下": the token is the phrase rules' to mask).
    const remark = words.length > 1 && /^\p{Script=Han}+$/u.test(words.at(-1) ?? "");
    const describes =
      DESCRIBES.test(value) || DESCRIBES_EN.test(value) || words.some((w) => NOT_A_VALUE.has(w));
    if (!colon && (remark || describes)) continue;
    out.push({ start: at[0], end: at[0] + value.length, id: "password-phrase" });
  }
  return out;
}

/**
 * Several words with no instruction among them ("Blue Sky 2024", "abc 123 xyz"), or one token
 * that mixes Chinese with digits or letters ("龍貓1234"). One ASCII token alone is the phrase
 * rules' to judge.
 */
function isPassphrase(value: string): boolean {
  if (
    isPlaceholder(value) ||
    // `PASSWORD=your_password -v /data …`: a phrase that opens with a placeholder is none.
    isPlaceholder(value.split(/\s+/)[0] ?? "") ||
    /已隐藏/.test(value) ||
    NOT_PASSPHRASE_ZH.test(value) ||
    NOT_A_STATEMENT.test(value)
  )
    return false;
  const words = value.split(/\s+/).filter(Boolean);
  const han = /\p{Script=Han}/u.test(value);
  if (words.length === 1) return han && /[A-Za-z0-9]/.test(value);
  if (han && !/[A-Za-z0-9]/.test(value)) return false;
  return words.length <= 8 && words.every((w) => !NOT_PASSPHRASE_WORDS.has(w.toLowerCase()));
}

function chineseDigits(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(CHINESE_DIGITS)) {
    const at = m.indices?.groups?.value;
    if (!at || UNIT.test(text.slice(at[1]))) continue;
    out.push({ start: at[0], end: at[1], id: "password-phrase" });
  }
  return out;
}

/** A dial lock's combination, with or without a keyword: "左4圈 右6圈 左2圈", "左转3圈到17 右转到42". */
const DIAL_TURN = String.raw`[左右]转?\s*(?:\d{1,2}\s*圈\s*)?(?:到\s*)?\d{1,2}\s*圈?`;
const DIAL = new RegExp(String.raw`${DIAL_TURN}(?:[\s，,、]*${DIAL_TURN})+`, "gu");

function dialCombinations(text: string): PhraseMatch[] {
  return [...text.matchAll(DIAL)]
    .filter((m) => m[0].includes("圈"))
    .map((m) => ({ start: m.index, end: m.index + m[0].length, id: "password-phrase" }));
}

/**
 * After a connector anywhere in the keyword's sentence, each token that looks like a value:
 * letters with digits (six characters or more), four digits or more, or keypad symbols with
 * digits (`*520*1314`). Emails, versions, dates, years and counted numbers are not.
 */
function furtherOn(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(SENTENCE)) {
    const at = m.indices?.groups?.rest;
    const rest = m.groups?.rest ?? "";
    const connector = new RegExp(`${TYPED}|${CONNECTOR}`, "iu").exec(rest);
    if (!at || !connector) continue;
    // A PIN, a door code or what is typed on a keypad may well be a year.
    const short = new RegExp(`^(?:${TYPED})$`).test(connector[0]) || PIN_WORD.test(m.groups?.keyword ?? "");
    const from = connector.index + connector[0].length;
    for (const t of rest.slice(from).matchAll(/(?<![\x21-\x7E])[\x21-\x7E]{4,64}(?![\x21-\x7E])/g)) {
      const token = t[0].replace(/[.,;:)\]}>"'”’」。，]+$/u, "");
      const start = at[0] + from + t.index;
      // Markup is no value: `[CQ:at,qq=10000]`, `<@!123>`. A blank (`your_password`) is the value the
      // sentence gives, and what follows it (`-v /data mysql:8.0`) is something else.
      if (isPlaceholder(token)) {
        if (!/^[<[]/.test(token)) break;
        continue;
      }
      if (!strongValue(token, short) || UNIT.test(text.slice(start + token.length).trimStart())) continue;
      out.push({ start, end: start + token.length, id: "password-phrase" });
    }
  }
  return out;
}

function strongValue(token: string, short: boolean): boolean {
  // Emails, links, paths, versions, dates and times.
  if (/@.*\.|^https?:|[/\\]|^v?\d+(?:\.\d+)+$|^\d{1,4}[-:]\d/.test(token)) return false;
  // Four digits are a PIN or a date as often as a year; a year is a value only where a PIN is said.
  if (/^\d+$/.test(token)) return token.length >= 4 && (short || !/^(?:19|20)\d\d$/.test(token));
  if (/^[#*\d]+$/.test(token)) return /[#*]/.test(token) && (token.match(/\d/g)?.length ?? 0) >= 4;
  return token.length >= 6 && /[A-Za-z]/.test(token) && /\d/.test(token);
}
