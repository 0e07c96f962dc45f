/**
 * The numbers of passports, permits, visas and residence cards: a mainland passport (E12345678),
 * a permit for Hong Kong, Macao or Taiwan (C12345678, 01234567, H0123456789), a Hong Kong, Macao
 * or Taiwan identity card (A123456(7), 1234567(8), A123456789), a foreign passport, visa or
 * residence card. Each books a flight or opens an account in its holder's name, as an ID number
 * does, and is masked like one (docs/decisions/0750-passport-and-permit-numbers.md).
 *
 * Letters and digits alone are as often a flight, a model or an order, so a number is read only
 * after the document's name, within the same clause, and not after a date or a fee word.
 */

export type TravelDocumentMatch = { readonly start: number; readonly end: number; readonly id: string };

const DOCUMENT = new RegExp(
  [
    "护照|護照|户照|passport",
    "通行证|通行證|通性证|台胞证|台胞證|回乡证|回鄉證",
    "(?:香港|澳门|澳門|台湾|台灣)身[份分][证證]|身[份分][证證]字[号號]|HKID",
    "签证|簽證|申根|visa|绿卡|綠卡|green\\s*card|A-number|BRP|在留卡|居留[证證]|居留身份[证證]|residence\\s+(?:permit|card)",
  ].join("|"),
  "giu",
);
/**
 * An identity card's number in brackets-checked form is read after any ID word: "身份證號碼：
 * K382947(A)" is a Hong Kong card, whose shape a mainland number never has.
 */
const ID_WORD = /身[份分][证證]|ID\s*card/giu;
const BRACKETED = String.raw`[A-Z]{0,2}\d{6,7}\s?[(（][0-9A][)）]`;
/** Letters and digits (grouped or not, letters after too), or a long run of digits. */
const NUMBER = new RegExp(
  String.raw`(?<![A-Za-z0-9])(?:${BRACKETED}|[A-Z]{1,3}(?:[ -]?\d){6,10}[A-Z]{0,2}|\d{8,18})(?![A-Za-z0-9])`,
  "u",
);
const BRACKETED_NUMBER = new RegExp(String.raw`(?<![A-Za-z0-9])${BRACKETED}`, "u");
/** How far after the name the number may start: a few words of the same clause. */
const WINDOW = 16;
/** Between name and number, a date, a fee or a wait: "护照有效期到 20300512". */
const NOT_THE_NUMBER = /有效期|到期|过期|過期|日期|期限|费|費|元|天|工作日|expir|exp\b|date|fee|valid/i;

/**
 * A later sentence that gives the number back: "回乡证是M开头的对吧？我的是 M12345678", "护照办好了。
 * 号码是 E87654321". Right before the number: 号码 or 号 with no other thing's name before it (航班号,
 * 订单号, 房间号 and QQ号 are of something else), "我的是", or "number is"
 * (docs/decisions/0790-lock-digits-documents-given-back-and-robot-webhooks.md).
 */
const GIVEN_BACK =
  /(?:(?<![\p{L}\p{N}])|(?<=新|新的|的))(?:号码|號碼|号|號|编号|編號)\s*(?:是|为|為|[:：])?\s*$|(?:我|他|她)的(?:是)?\s*$|\b(?:number|no\.)\s*(?:is\s*|[:：]\s*)?$|\bmine\s+is\s*$/iu;
/** Another thing's number between name and number: "护照办好了，我的QQ号是 …", "订单号". */
const OTHER_THING = /(?<=[\p{L}\p{N}])(?<![的新番编編证證照码碼字件])[号號]/u;
/** How far after the name a later sentence may give the number. */
const LATER = 80;

export function findTravelDocuments(text: string): TravelDocumentMatch[] {
  const found = [
    ...after(text, DOCUMENT, NUMBER),
    ...after(text, ID_WORD, BRACKETED_NUMBER),
    ...givenBack(text),
  ];
  // "香港身份证 A123456(7)" is found after both names: once is enough.
  return found.filter((f, i) => found.findIndex((g) => g.start === f.start) === i);
}

function after(text: string, names: RegExp, number: RegExp): TravelDocumentMatch[] {
  const out: TravelDocumentMatch[] = [];
  for (const name of text.matchAll(names)) {
    const from = name.index + name[0].length;
    const rest = text.slice(from, from + WINDOW + 24);
    const clauseEnd = rest.search(/[。！？!?\n；;]/u);
    const found = number.exec(rest);
    if (!found || found.index > WINDOW || (clauseEnd >= 0 && found.index > clauseEnd)) continue;
    const between = rest.slice(0, found.index);
    if (NOT_THE_NUMBER.test(between) || OTHER_THING.test(between)) continue;
    const start = from + found.index;
    out.push({ start, end: start + found[0].trimEnd().length, id: "travel-document" });
  }
  return out;
}

/** Numbers a later sentence of the message gives after the document was named. */
function givenBack(text: string): TravelDocumentMatch[] {
  const out: TravelDocumentMatch[] = [];
  const numbers = new RegExp(NUMBER.source, "gu");
  for (const name of text.matchAll(DOCUMENT)) {
    const from = name.index + name[0].length;
    for (const n of text.slice(from, from + LATER).matchAll(numbers)) {
      const before = text.slice(Math.max(from, from + n.index - 12), from + n.index);
      if (!GIVEN_BACK.test(before) || NOT_THE_NUMBER.test(before) || OTHER_THING.test(before)) continue;
      const start = from + n.index;
      out.push({ start, end: start + n[0].trimEnd().length, id: "travel-document" });
    }
  }
  return out;
}
