/**
 * Calendar days in a time zone. A day is `YYYY-MM-DD` and spans local midnight to local
 * midnight, which in zones with daylight saving is not always 24 hours; offsets come from
 * the platform's ICU time-zone data through Intl, never from a fixed table.
 */

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether the platform's Intl knows the zone: a bad name is refused at load, not at midnight. */
export function isTimeZone(value: string): boolean {
  if (value.trim() === "") return false;
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

/** Wall-clock fields of an instant in the zone. */
function wallClock(ts: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ts))
      .filter((p) => p.type !== "literal")
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<"year" | "month" | "day" | "hour" | "minute" | "second", number>;
  return parts;
}

/** The zone's offset from UTC at an instant, in ms (east positive; Asia/Shanghai: 8 h). */
export function offsetAt(ts: number, timeZone: string): number {
  const w = wallClock(ts, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ts / 1000) * 1000;
}

/** The local calendar day of an instant. */
export function localDay(ts: number, timeZone: string): string {
  const w = wallClock(ts, timeZone);
  return `${String(w.year).padStart(4, "0")}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/**
 * The instant local midnight starts a day. Overflowing days and months normalize as in
 * Date.UTC (month 13 = January of the next year). Two passes settle the offset across a DST change.
 */
export function midnight(year: number, month: number, day: number, timeZone: string): number {
  const utc = Date.UTC(year, month - 1, day);
  let guess = utc - offsetAt(utc, timeZone);
  guess = utc - offsetAt(guess, timeZone);
  return guess;
}

/** `[start, end)` of a local day in ms; throws on a string that is not a date. */
export function dayBounds(day: string, timeZone: string): { start: number; end: number } {
  const m = DAY.exec(day);
  if (!m) throw new Error(`'${day}' is not a YYYY-MM-DD day`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const next = new Date(Date.UTC(y, mo - 1, d) + DAY_MS);
  return {
    start: midnight(y, mo, d, timeZone),
    end: midnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone),
  };
}

/** The `count` local days before the day of `now`, newest first (yesterday, the day before…). */
export function daysBefore(now: number, timeZone: string, count: number): string[] {
  const days: string[] = [];
  let { start } = dayBounds(localDay(now, timeZone), timeZone);
  for (let i = 0; i < count; i++) {
    const day = localDay(start - 1, timeZone);
    days.push(day);
    start = dayBounds(day, timeZone).start;
  }
  return days;
}

/** A local day and the instants that bound it, `[start, end)`. */
export type DayWindow = { readonly day: string; readonly start: number; readonly end: number };

/**
 * The last `count` local days ending with the day of `now`, oldest first, each with its bounds:
 * the buckets of every per-day chart and count, so they split where "昨天" splits.
 */
export function lastDays(now: number, timeZone: string, count: number): DayWindow[] {
  const today = localDay(now, timeZone);
  const days = [...daysBefore(now, timeZone, Math.max(0, count - 1)).reverse(), today];
  return days.map((day) => ({ day, ...dayBounds(day, timeZone) }));
}
