/**
 * Numbers that identify a person (docs/memory.md#sensitivity): mainland Chinese resident ID
 * numbers, bank card numbers and mainland mobile numbers, and after their names the numbers of
 * passports and permits (travel-documents.ts). Never kept in memory; masked in the
 * message log like credentials, with their own mask so the log still says what was there.
 *
 * Each is checked, not just shaped, so order and tracking numbers stay readable: an ID number
 * has a region code, a real birth date and its ISO 7064 MOD 11-2 check character (GB 11643),
 * or, after a word that names it (身份证号), the birth date alone;
 * a card number passes the Luhn check (fast-luhn) and starts like a card of a known network or
 * follows a card word (卡号, 银行卡, card); a mobile number is 1[3-9] and nine digits, grouped or
 * not, with an optional +86. Any of them may be grouped by spaces, dashes or dots, or said in
 * Chinese numerals ("一三八 幺二三四 五六七八"): the same checks decide
 * (docs/decisions/0540-personal-numbers-as-people-write-them.md).
 */
import luhn from "fast-luhn";
import { detectionText } from "../text/detection-text";
import { asDigits, SPOKEN_DIGITS } from "../text/spoken-digits";
import { findTravelDocuments } from "./travel-documents";

export type PersonalDataMatch = { readonly start: number; readonly end: number; readonly id: string };

/** What replaces each personal number; the surrounding words stay. */
export const PERSONAL_DATA_MASK = "[已隐藏的个人信息]";

/** 18 characters, grouped or not ("110101 19900307 7715", "110101-1990-0307-7715"); the check decides. */
const ID_NUMBER = /(?<![\dA-Za-z])[1-8](?:[ .-]?\d){16}[ .-]?[\dXx](?![\dA-Za-z])/g;
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = "10X98765432";

export function validIdNumber(id: string): boolean {
  if (!bornOn(id)) return false;
  const sum = ID_WEIGHTS.reduce((s, w, i) => s + w * Number(id[i]), 0);
  return ID_CHECK[sum % 11] === id[17]?.toUpperCase();
}

/** An ID number's shape with a real date of birth in it, whatever its check character. */
function bornOn(id: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(id)) return false;
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1900 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Words that say an ID number follows. Someone who mistypes a digit of their own number still
 * gives it away, so after these a real date of birth is check enough
 * (docs/decisions/0740-a-mistyped-id-number-is-still-personal.md).
 */
const ID_WORD = /(?:身份证|身份證|证件|證件|ID\s*card|identity\s*card|\bID\b)[^\d\n]{0,12}$/iu;

/** 15 to 19 digits, optionally grouped by spaces, dashes or dots. */
const CARD = /(?<![\d.-])\d(?:[ .-]?\d){14,18}(?![\d-]|\.\d)/g;
/** UnionPay 62, Visa 4, Mastercard 51–55 and 2221–2720, Amex 34/37, JCB 35, Discover 6011/65. */
const CARD_PREFIX = /^(?:62|4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|35|6011|65)/;
const CARD_WORD = /(?:卡号|银行卡|信用卡|储蓄卡|借记卡|card\s*(?:number|no\.?|#)?)[^\d\n]{0,8}$/iu;

/** 1[3-9] and nine digits, in groups of three or more ("138 1234 5678", "139.1234.5678", "1381-234-5678"). */
const MOBILE = /(?<![\d+])(?:(?:\+|00)?86[-\s]?|\(\+?86\)\s?)?1[3-9](?:[-\s.]?\d){9}(?![\d.-]?\d)/g;
/** A run of eleven digits or more with at least one Chinese numeral: "一三八 一二三四 五六七八". */
const NUMERAL_RUN = new RegExp(
  `[0-9${SPOKEN_DIGITS}](?:[\\s-]?[0-9${SPOKEN_DIGITS}]){10,18}(?:[\\s-]?[Xx])?`,
  "gu",
);
const SPOKEN = new RegExp(`[${SPOKEN_DIGITS}]`, "u");

/**
 * A chat or account key (`qq:user:<openid>`, `onebot:group:<number>`), which the bot writes
 * itself: an openid is letters and digits, and a run of them can look like any of the numbers
 * above. A finding inside a key is the key, not someone's number. A key's id is a platform number
 * (all digits) or an openid (16 or more characters): a short made-up id is no cover for a number.
 */
const KEY =
  /(?<![A-Za-z0-9])[a-z][a-z0-9_-]{1,15}:(?:user|private|group|channel|dm):(?:\d+|[A-Za-z0-9_-]{16,})(?![A-Za-z0-9_-])/g;

/** Every ID, card and mobile number in `text` (read as detection-text.ts reads it). */
export function findPersonalData(text: string): PersonalDataMatch[] {
  const keys = [...text.matchAll(KEY)].map((k) => ({ start: k.index, end: k.index + k[0].length }));
  return findNumbers(text).filter((m) => !keys.some((k) => m.start < k.end && k.start < m.end));
}

function findNumbers(text: string): PersonalDataMatch[] {
  const out: PersonalDataMatch[] = [];
  for (const m of text.matchAll(ID_NUMBER)) {
    const id = m[0].replace(/[ .-]/g, "");
    if (validIdNumber(id) || (ID_WORD.test(text.slice(Math.max(0, m.index - 24), m.index)) && bornOn(id))) {
      out.push({ start: m.index, end: m.index + m[0].length, id: "cn-id" });
    }
  }
  for (const m of text.matchAll(CARD)) {
    const digits = m[0].replace(/\D/g, "");
    if (digits.length < 16 && !/^3[47]/.test(digits)) continue;
    const named = CARD_WORD.test(text.slice(Math.max(0, m.index - 24), m.index));
    if (luhn(digits) && (named || CARD_PREFIX.test(digits))) {
      out.push({ start: m.index, end: m.index + m[0].length, id: "bank-card" });
    }
  }
  for (const m of text.matchAll(MOBILE)) {
    // Digits one by one ("1 3 8 …") are a list as often as a number, and "19910704 385" is a date and
    // more: a mobile number's groups have three digits or more, its first at most four ("138 1234 5678").
    const groups = m[0].replace(/^.*?(?=1[3-9])/, "").split(/[-\s.]/);
    const grouped = groups.every((g) => g.length >= 3) && (groups[0]?.length ?? 0) <= 4;
    if (groups.length === 1 || grouped) {
      out.push({ start: m.index, end: m.index + m[0].length, id: "cn-mobile" });
    }
  }
  return [...out, ...numeralNumbers(text), ...findTravelDocuments(text)];
}

/** Mobile, ID and card numbers said in Chinese numerals, each checked as its kind is. */
function numeralNumbers(text: string): PersonalDataMatch[] {
  const out: PersonalDataMatch[] = [];
  for (const m of text.matchAll(NUMERAL_RUN)) {
    if (!SPOKEN.test(m[0])) continue;
    const digits = asDigits(m[0].replace(/[\s-]/g, "")).toUpperCase();
    const span = { start: m.index, end: m.index + m[0].length };
    if (/^1[3-9]\d{9}$/.test(digits)) out.push({ ...span, id: "cn-mobile" });
    else if (digits.length === 18 && validIdNumber(digits)) out.push({ ...span, id: "cn-id" });
    else if (/^\d{16,19}$/.test(digits) && luhn(digits) && CARD_PREFIX.test(digits))
      out.push({ ...span, id: "bank-card" });
  }
  return out;
}

/** Whether `text`, read as the detectors read it, holds an ID, card or mobile number. */
export function containsPersonalData(text: string): boolean {
  return findPersonalData(detectionText(text).text).length > 0;
}
