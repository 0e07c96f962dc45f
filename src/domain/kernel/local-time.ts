/**
 * The one way a time is shown to a person or exported for one: the wall clock of an instant
 * in `calendar.timeZone`, always with the zone's offset (`2026-12-03 00:30 +08:00`), so a
 * reader never has to guess the zone and "12-03" means the same day everywhere — the
 * dashboard, the CLI, exports, the model's prompt, and the days "昨天", the summaries and the
 * spend caps count in (local-day.ts). Stored times stay UTC epoch ms; only rendering is local.
 */
import { localDay, offsetAt } from "./local-day";

const pad = (n: number) => String(n).padStart(2, "0");

/** `+08:00`, `-08:00`, `+05:45`: the zone's offset at the instant (daylight saving included). */
export function offsetLabel(ts: number, timeZone: string): string {
  const offset = offsetAt(ts, timeZone);
  const minutes = Math.round(Math.abs(offset) / 60_000);
  return `${offset < 0 ? "-" : "+"}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** The wall clock's `HH:MM` (or `HH:MM:SS`) of an instant in the zone. */
function clockTime(ts: number, timeZone: string, seconds: boolean): string {
  const local = new Date(ts + offsetAt(ts, timeZone));
  const hm = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
  return seconds ? `${hm}:${pad(local.getUTCSeconds())}` : hm;
}

/**
 * `2026-12-03 00:30 +08:00`: the instant in the zone, with its offset. `seconds` adds them
 * (`00:30:05`) for logs and exports where order within a minute matters.
 */
export function formatLocalTime(ts: number, timeZone: string, options: { seconds?: boolean } = {}): string {
  return `${localDay(ts, timeZone)} ${clockTime(ts, timeZone, options.seconds ?? false)} ${offsetLabel(ts, timeZone)}`;
}

/** `2026-12-03T00:30`: the instant's wall clock in the zone as a `datetime-local` field holds it. */
export function localInputValue(ts: number, timeZone: string): string {
  return `${localDay(ts, timeZone)}T${clockTime(ts, timeZone, false)}`;
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/;

/**
 * The instant a wall clock `YYYY-MM-DDTHH:MM` (or with a space) names in the zone, or null when
 * it names none: not that shape, not on the calendar (02-31, 25:00), or skipped by a daylight
 * saving change. What a person types into a time field is read in `calendar.timeZone`, as shown.
 */
export function parseLocalInput(value: string, timeZone: string): number | null {
  const m = LOCAL_INPUT.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const utc = Date.UTC(y, mo - 1, d, h, mi);
  // Two passes settle the offset across a daylight saving change, as midnight() does.
  let ts = utc - offsetAt(utc, timeZone);
  ts = utc - offsetAt(ts, timeZone);
  return localInputValue(ts, timeZone) === `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}` ? ts : null;
}

const WEEKDAYS_ZH = ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"] as const;

/** 星期四: the local weekday of an instant, for the model, which otherwise guesses "上周三" wrong. */
export function localWeekdayZh(ts: number, timeZone: string): string {
  const [y, m, d] = localDay(ts, timeZone).split("-").map(Number) as [number, number, number];
  return WEEKDAYS_ZH[new Date(Date.UTC(y, m - 1, d)).getUTCDay()] ?? "";
}

/**
 * An audit detail as it is shown: every `…At` field holding epoch ms (`expiresAt`, `dueAt`,
 * `appliedAt`) becomes its local time, so a detail never shows a raw instant next to a table
 * whose times are local. Other values are left as written.
 */
export function withLocalTimes(
  detail: Readonly<Record<string, unknown>>,
  timeZone: string,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(detail).map(([key, value]) => [
      key,
      /At$/.test(key) && typeof value === "number" && Number.isFinite(value)
        ? formatLocalTime(value, timeZone)
        : value,
    ]),
  );
}

export { localDay };
