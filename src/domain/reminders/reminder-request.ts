/**
 * Recognises "提醒我明天八点开会", "10分钟后叫我喝水", "记得提醒我…", "到时候叫我", "remind me to
 * call mom at 8pm tomorrow" and reads the time with chrono-node in `calendar.timeZone`. Small on
 * purpose: a request either starts with the trigger (then it is one, with or without a time),
 * or names a time right before it ("明天早上8点叫我起床"); "谢谢你提醒我", "别提醒我了" and
 * "你昨天提醒我了吗" name no future time before the trigger and are left to the model.
 */
import * as chrono from "chrono-node";
import { offsetAt } from "../kernel/local-day";

export type ReminderRequest =
  /** A future time and what to say then (the words of the request minus trigger and time). */
  | { readonly kind: "set"; readonly at: number; readonly what: string; readonly phrase: string }
  /** A reminder was asked for without a time of day ("提醒我开会", "明天提醒我"). */
  | { readonly kind: "no-time"; readonly what: string }
  /** The time named is not in the future ("今天早上八点" said at noon). */
  | { readonly kind: "past"; readonly at: number; readonly phrase: string }
  /** Further out than MAX_AHEAD_MS. */
  | { readonly kind: "too-far"; readonly at: number; readonly phrase: string };

export type ReminderClock = { readonly now: number; readonly timeZone: string };

/** A reminder is at most a year ahead: a longer one is more likely a misread date. */
export const MAX_AHEAD_MS = 366 * 86_400_000;

/** Politeness and "remember to" before the trigger. */
const LEAD = String.raw`(?:[请請]|麻[烦煩]|劳驾|拜[托託]|[帮幫]我|[帮幫]忙|你|能不能|能|可以|可不可以|[记記]得|[记記]住|[别別]忘了|一定|到[时時](?:候)?|到点|\s|[，,])*`;
/** The trigger when it opens the request: anything after it may hold the time. */
const OPENING = new RegExp(
  `^${LEAD}(?:提醒(?:一下)?我|(?:到[时時](?:候)?|到[点點])(?:叫|喊|提醒)(?:一下)?我)(?:一下)?`,
  "u",
);
/** The trigger after a time: "明天八点提醒我开会", "10分钟后叫我". */
const AFTER_TIME = /^(.{1,30}?)(?:记得|要|再|就)?(?:提醒(?:一下)?我|(?:叫|喊)(?:一下)?我|提醒一下)(?:一下)?/u;
const ENGLISH =
  /^(?:hey\s+|ok\s+)?(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?remind\s+me\b/i;
/** A message that only quotes the bot back or asks about a past reminder ends like a question. */
const PAST_QUESTION = /(?:了吗|了没|了没有|过吗)[？?]?$/u;

/** The request in `text`, or null when it is not one (then the model answers). */
export function readReminderRequest(raw: string, clock: ReminderClock): ReminderRequest | null {
  const text = raw
    .normalize("NFKC")
    .replace(/^(?:@\S+\s*)+/u, "")
    .trim();
  if (text === "" || PAST_QUESTION.test(text)) return null;
  const english = ENGLISH.exec(text);
  if (english) return decide(text.slice(english[0].length), chrono.en, clock, true);
  const opening = OPENING.exec(text);
  if (opening) return decide(text.slice(opening[0].length), chrono.zh, clock, false);
  const after = AFTER_TIME.exec(text);
  if (!after) return null;
  const before = (after[1] ?? "").replace(new RegExp(`^${LEAD}`, "u"), "");
  const found = chrono.zh.parse(before, reference(clock), { forwardDate: true })[0];
  // Only a time that opens the request makes it one: "谢谢你提醒我" names none.
  if (!found || (found.index > 0 && before.slice(0, found.index).trim() !== "")) return null;
  const rest = text.slice(after[0].length);
  // "昨天提醒我…" recounts the past: a day gone by, with no time of day, is no request.
  if (!found.start.isCertain("hour") && instantOf(found.start, clock.timeZone) <= clock.now) return null;
  return decide(`${before} ${rest}`, chrono.zh, clock, false);
}

function decide(
  words: string,
  parser: Pick<chrono.Chrono, "parse">,
  clock: ReminderClock,
  english: boolean,
): ReminderRequest {
  const found = parser.parse(words, reference(clock), { forwardDate: true })[0];
  const timed = found && (found.start.isCertain("hour") || found.start.isCertain("minute"));
  const what = cleanWhat(found ? words.replace(found.text, " ") : words, english);
  if (!found || !timed) return { kind: "no-time", what };
  const at = instantOf(found.start, clock.timeZone);
  if (at <= clock.now) return { kind: "past", at, phrase: found.text };
  if (at - clock.now > MAX_AHEAD_MS) return { kind: "too-far", at, phrase: found.text };
  return { kind: "set", at, what, phrase: found.text };
}

/**
 * chrono reads relative days from the reference's UTC date even when given a zone, so it gets
 * the zone's wall-clock time as a UTC instant: its components are then local (as date-range.ts).
 */
function reference(clock: ReminderClock) {
  return { instant: new Date(clock.now + offsetAt(clock.now, clock.timeZone)), timezone: 0 };
}

/** Local wall-clock components back to an instant; two passes settle the offset across DST. */
function instantOf(c: chrono.ParsedComponents, timeZone: string): number {
  const wall = Date.UTC(
    c.get("year") ?? 1970,
    (c.get("month") ?? 1) - 1,
    c.get("day") ?? 1,
    c.get("hour") ?? 0,
    c.get("minute") ?? 0,
    c.get("second") ?? 0,
  );
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}

/** What to say when it is time: the request's words without connectors and end punctuation. */
function cleanWhat(words: string, english: boolean): string {
  const connectors = english
    ? /^(?:\s|,|:)*(?:to|that|about|of)?\s+/i
    : /^(?:[\s，,：:、]|的时候|的|时候|时|要|记得|一下)*/u;
  return words
    .replace(/\s{2,}/g, " ")
    .trim()
    .replace(connectors, "")
    .replace(/[\s，,。.!！~～：:]+$/u, "")
    .trim()
    .slice(0, 200);
}
