/**
 * What a lock or a network takes, said in words (docs/decisions/0530-described-credential-values.md):
 * a dial's turns ("左三圈右七圈左九圈", "先左转到十二 再右转到三十", "left 36, right 12, left 4"), a
 * wifi password without the word password ("wifi是12345678", "家里wifi：abc12345") and an unlock
 * shape ("解锁图案是Z字形", "画个L就解开了", "unlock pattern is a big C"). Only the value is masked.
 */

import { CLAUSE_END, keyed, rx, WIFI } from "./credential-described-values";
import type { PhraseMatch } from "./credential-phrases";

const HAN_NUMBER = "零一二三四五六七八九十两";
/** "左三圈", "先左转三圈到二十", "再往左绕一整圈停在三十二", "往右转三圈停15". */
const NUMBER = String.raw`(?:[${HAN_NUMBER}]{1,3}|\d{1,2})`;
const TURN_ZH = String.raw`(?:先|再|然后|接着|最后)?\s*往?[左右][转绕]?\s*(?:(?:${NUMBER}|一整|整)\s*圈\s*)?(?:到|停在|停到|停)?\s*${NUMBER}\s*圈?`;
/** "left 36", "right to 22", "left past it once to 8". */
const TURN_EN = String.raw`(?:then\s+)?\b(?:left|right)\s+(?:(?:[a-z]+\s+){0,3}?to\s+)?\d{1,2}\b`;
/** Three turns or more; two where a lock is named ("左三圈右三圈" alone is a nursery rhyme). */
const DIALS = [
  new RegExp(String.raw`${TURN_ZH}(?:[\s，,、]*${TURN_ZH})+`, "gu"),
  new RegExp(String.raw`${TURN_EN}(?:[\s,]*${TURN_EN})+`, "giu"),
];
const LOCK_WORD = /密码|保险箱|保险柜|锁|combination|safe|lock/i;

/** A WPA password is 8 to 63 characters; a network's name ("TP-LINK_5G", "CMCC-8a2b") is no value. */
const WIFI_VALUE = rx(
  String.raw`(?<![A-Za-z])(?:${WIFI})(?![A-Za-z])\s*(?:是|为|[:：=]|\s)\s*(?<value>[A-Za-z0-9!@#$%&*]{8,63})(?![\x21-\x7E])`,
);
/** An unlock pattern's letter or digit: "解锁图案是Z字形", "图案画个M就行", "画个L就解开了". */
const SHAPE = String.raw`(?:一?个\s*)?(?:大写的?\s*)?(?<value>[A-Za-z0-9](?:字形?|形)?)`;
const UNLOCK = rx(
  String.raw`(?:(?:解锁|锁屏)(?:图案|手势)?|图案密码|手势密码)\s*(?:(?:就是|是|为|就|[:：])\s*画?|画)\s*${SHAPE}${CLAUSE_END}`,
);
const DRAWN = rx(String.raw`画${SHAPE}\s*就(?:能|可以)?(?:解开|解锁|开)`);
/** Case-sensitive: the shape is a capital or a digit ("unlock pattern is a big C"), never "a bit". */
const UNLOCK_EN =
  /\b[Uu]nlock\s+pattern(?:['’]s|\s+is|:)\s*(?:(?:a|an|the)\s+)?(?:(?:big|small|capital)\s+)?(?<value>[A-Z0-9])(?![A-Za-z0-9])/dg;

/**
 * A keypad entry: four digits or more closed by "#", as a door's panel takes them ("7391#",
 * "*0815#", "1203#4567"). A building ("3#楼"), a phone menu ("按 1#") and a hashtag are shorter
 * or open with "#" (docs/decisions/0680-keypad-entries.md).
 */
const KEYPAD = /(?<![A-Za-z0-9_#*])(?<value>\*?\d{4,12}#(?:\d{2,12}#?)?)(?![A-Za-z0-9_])/dg;
/**
 * The same said in words: "进门输 5820 然后按井号", "3391 再按井号就开了". Not a number dialled
 * first ("拨 10086 然后按井号 转人工"): that is a phone menu
 * (docs/decisions/0760-keypad-words-wifi-keys-and-two-near-misses.md).
 */
const KEYPAD_SAID =
  /(?<!(?:拨|撥|打|call|dial)\s{0,2})(?<![\d#*])(?<value>\*?\d{4,12})\s*(?:然后|然後|再|后|後)?\s*(?:按|摁|加|输|輸)?\s*(?:井号|井號|井字键|#号)/dgu;

/**
 * A lock that takes digits, named right before them: "锁屏是0918", "车锁4071", "储物柜 2580",
 * "bike lock is 7314"; or at the end of the lock's description, after an arrow: "保险箱是老板娘生日
 * 倒过来 → 90218". Not a count, a price or a year: no unit after the digits ("4071 楼下" is where
 * the bike stands, "1502楼" a floor) (docs/decisions/0790-lock-digits-documents-given-back-and-robot-webhooks.md).
 */
const LOCK = String.raw`(?:锁屏|鎖屏|屏幕锁|车锁|車鎖|单车锁|自行车锁|门锁|門鎖|挂锁|掛鎖|密码锁|保险箱|保险柜|保險箱|保險櫃|行李箱锁?|储物柜|儲物櫃|寄存柜|更衣柜|(?<![A-Za-z])(?:bike\s+lock|padlock|locker|lock\s*box)(?![A-Za-z]))`;
const DIGITS_AFTER_UNIT = String.raw`(?![\d.]|[楼樓]|\s*[号號元块塊年月日个個次位分秒米斤%]|\s*(?:km|kg|cm|mm|k|w)\b)`;
const LOCK_DIGITS = rx(
  String.raw`${LOCK}\s*(?:(?:就是|是|为|為|is|[:：=])\s*)?(?<value>(?<!\d)\d{4,8})${DIGITS_AFTER_UNIT}`,
);
/**
 * A lock's password said with the lock: "门禁密码520", "锁的密码 886", "储物柜密码是 731". A lock
 * takes three digits, and beside a lock they are its code, not "bye" or "I love you"
 * (docs/decisions/1030-three-digit-lock-codes.md).
 */
const LOCK_CODE = rx(
  String.raw`(?:${LOCK}|门禁|門禁|[锁鎖])的?(?:密码|密碼)\s*(?:(?:就是|是|为|為|[:：=])\s*)?(?<value>(?<!\d)\d{3,8})${DIGITS_AFTER_UNIT}`,
);
const LOCK_ARROW = rx(
  String.raw`${LOCK}(?<bridge>[^\n，。！？；,.!?;]{0,20}?)(?:→|->|=>|⇒)\s*(?<value>\d{3,8})${DIGITS_AFTER_UNIT}`,
);

/** Every dial, wifi value, unlock shape and keypad entry in `text`; spans cover the value only. */
export function findLockValues(text: string): PhraseMatch[] {
  return [
    ...dialTurns(text),
    ...wifiValues(text),
    ...keyed(text, UNLOCK),
    ...keyed(text, DRAWN),
    ...keyed(text, UNLOCK_EN),
    ...keyed(text, KEYPAD),
    ...keyed(text, KEYPAD_SAID),
    ...keyed(text, LOCK_DIGITS),
    ...keyed(text, LOCK_CODE),
    ...keyed(text, LOCK_ARROW),
  ];
}

function dialTurns(text: string): PhraseMatch[] {
  const keyed = LOCK_WORD.test(text);
  return DIALS.flatMap((dial) => [...text.matchAll(dial)])
    .filter((m) => (m[0].match(/[左右]|left|right/gi)?.length ?? 0) >= (keyed ? 2 : 3))
    .map((m) => {
      const start = m.index + m[0].length - m[0].trimStart().length;
      return { start, end: m.index + m[0].trimEnd().length, id: "password-phrase" };
    });
}

function wifiValues(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(WIFI_VALUE)) {
    const at = m.indices?.groups?.value;
    const value = m.groups?.value ?? "";
    const digits = /^\d+$/.test(value);
    if (!at || !(digits || (/\d/.test(value) && /[A-Za-z]/.test(value)))) continue;
    out.push({ start: at[0], end: at[1], id: "password-phrase" });
  }
  return out;
}
