/**
 * The days a history question names ("昨天", "上周三", "5月3日", "last Friday", "上周"),
 * resolved against a reference time (the turn's, or for stored questions the time they were
 * asked) in one time zone (`calendar.timeZone`), as a half-open range of whole local days. Days and weekdays are
 * parsed by chrono-node (its Chinese and English parsers); what it has no parser for — whole
 * weeks and months ("上周", "this month") — is the small table below. History looks back: a
 * date without a year, or a bare weekday, is its latest occurrence not after the reference.
 */
import * as chrono from "chrono-node";
import { localDay, midnight, offsetAt } from "../kernel/local-day";

export type DateRange = {
  /** Inclusive start (ms). */
  readonly since: number;
  /** Exclusive end (ms). */
  readonly until: number;
  /** The words of the text that named the range, to take out of a search query. */
  readonly phrase: string;
};

export type DateReference = { readonly now: number; readonly timeZone: string };

type LocalDay = { readonly y: number; readonly m: number; readonly d: number };

/** The local calendar day of an instant, as fields for the calendar arithmetic below. */
function dayOf(instant: number, timeZone: string): LocalDay {
  const [y, m, d] = localDay(instant, timeZone).split("-").map(Number);
  return { y: y ?? 0, m: m ?? 1, d: d ?? 1 };
}

/** Local midnight of a day (overflowing days and months normalize, as in Date.UTC). */
const startOf = (day: LocalDay, timeZone: string): number => midnight(day.y, day.m, day.d, timeZone);

const shiftDays = (day: LocalDay, n: number): LocalDay => {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
};

/** Monday = 0 … Sunday = 6: weeks start on Monday, as in Chinese usage (and ISO 8601). */
const mondayIndex = (day: LocalDay) => (new Date(Date.UTC(day.y, day.m - 1, day.d)).getUTCDay() + 6) % 7;

type Period = { readonly pattern: RegExp; readonly range: (today: LocalDay) => [LocalDay, LocalDay] };

const week =
  (offset: number) =>
  (today: LocalDay): [LocalDay, LocalDay] => {
    const monday = shiftDays(today, -mondayIndex(today) + 7 * offset);
    return [monday, shiftDays(monday, 7)];
  };
const month =
  (offset: number) =>
  (today: LocalDay): [LocalDay, LocalDay] => [
    { y: today.y, m: today.m + offset, d: 1 },
    { y: today.y, m: today.m + offset + 1, d: 1 },
  ];

const year =
  (offset: number) =>
  (today: LocalDay): [LocalDay, LocalDay] => [
    { y: today.y + offset, m: 1, d: 1 },
    { y: today.y + offset + 1, m: 1, d: 1 },
  ];

/**
 * Whole weeks, months and years, which chrono does not parse as ranges ("上周" it skips, "last week"
 * it reads as the day seven days ago). A week word followed by a weekday ("上周三") is left to
 * chrono, which resolves the day.
 */
const PERIODS: readonly Period[] = [
  { pattern: /上上(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天1-7])/, range: week(-2) },
  { pattern: /上(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天1-7])/, range: week(-1) },
  { pattern: /(?:这|本)(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天1-7])/, range: week(0) },
  { pattern: /\blast week\b/i, range: week(-1) },
  { pattern: /\bthis week\b/i, range: week(0) },
  { pattern: /上(?:个)?月(?![0-9一二三四五六七八九十]+[日号])/, range: month(-1) },
  { pattern: /(?:这|本)(?:个)?月(?![0-9一二三四五六七八九十]+[日号])/, range: month(0) },
  { pattern: /\blast month\b/i, range: month(-1) },
  { pattern: /\bthis month\b/i, range: month(0) },
  { pattern: /去年|\blast year\b/i, range: year(-1) },
  { pattern: /今年|\bthis year\b/i, range: year(0) },
];

const PARSERS = [chrono.zh.hans, chrono.en];

/**
 * The first day, days or period the text names, or null. A range ("5月1日到5月3日") covers
 * its first to its last day; a time of day is widened to its whole day.
 */
export function resolveDateRange(text: string, ref: DateReference): DateRange | null {
  const today = dayOf(ref.now, ref.timeZone);
  for (const period of PERIODS) {
    const m = period.pattern.exec(text);
    if (!m) continue;
    const [from, to] = period.range(today);
    return {
      since: startOf(from, ref.timeZone),
      until: startOf(to, ref.timeZone),
      phrase: m[0],
    };
  }
  // chrono reads relative days ("昨天") from the reference's UTC date even when given a zone,
  // so it gets the zone's wall-clock time as a UTC instant: its components are then local.
  const reference = {
    instant: new Date(ref.now + offsetAt(ref.now, ref.timeZone)),
    timezone: 0,
  };
  for (const parser of PARSERS) {
    const [result] = parser.parse(text, reference);
    if (!result) continue;
    const first = pastDay(result.start, today);
    const last = result.end ? pastDay(result.end, today, first) : first;
    // A month without a day ("in June", "2023年5月") is the whole month.
    const wholeMonth = !result.start.isCertain("day") && !result.start.isCertain("weekday");
    const end = wholeMonth && !result.end ? { y: last.y, m: last.m + 1, d: 1 } : shiftDays(last, 1);
    return {
      since: startOf(wholeMonth ? { ...first, d: 1 } : first, ref.timeZone),
      until: startOf(end, ref.timeZone),
      phrase: result.text,
    };
  }
  return null;
}

/**
 * The day of a parsed component, moved back to its latest occurrence not after today when the
 * text left the year (or, for a bare weekday, the week) open; an end is never before `after`.
 */
function pastDay(c: chrono.ParsedComponents, today: LocalDay, after?: LocalDay): LocalDay {
  let day: LocalDay = {
    y: c.get("year") ?? today.y,
    m: c.get("month") ?? today.m,
    d: c.get("day") ?? today.d,
  };
  const later = (a: LocalDay, b: LocalDay) => Date.UTC(a.y, a.m - 1, a.d) > Date.UTC(b.y, b.m - 1, b.d);
  const limit = after && later(after, today) ? after : today;
  if (!c.isCertain("year") && c.isCertain("month") && later(day, limit)) day = { ...day, y: day.y - 1 };
  else if (!c.isCertain("day") && c.isCertain("weekday")) while (later(day, limit)) day = shiftDays(day, -7);
  if (after && later(after, day)) return after;
  return day;
}

/**
 * A `since` / `until` argument: an ISO date or time (`2026-05-03`, `2026-05-03T20:00+08:00`)
 * or any phrase `resolveDateRange` reads. Since = the start of what it names; until = its end.
 */
export function parseDateBound(
  value: string,
  bound: "since" | "until",
  ref: DateReference,
): { ok: true; at: number } | { ok: false; reason: string } {
  const trimmed = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  if (iso) {
    const day = { y: Number(iso[1]), m: Number(iso[2]), d: Number(iso[3]) };
    const start = startOf(day, ref.timeZone);
    return { ok: true, at: bound === "since" ? start : startOf(shiftDays(day, 1), ref.timeZone) };
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) {
    const at = Date.parse(trimmed);
    if (Number.isFinite(at)) return { ok: true, at };
  }
  const range = resolveDateRange(trimmed, ref);
  if (!range) return { ok: false, reason: `${bound} 无法识别为日期：${trimmed.slice(0, 40)}` };
  return { ok: true, at: bound === "since" ? range.since : range.until };
}
