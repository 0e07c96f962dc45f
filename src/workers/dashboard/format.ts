/** Small display helpers shared by the pages. */
import { useContext } from "hono/jsx";
import { dayBounds, localDay } from "../../domain/kernel/local-day";
import { formatLocalTime, localInputValue, withLocalTimes } from "../../domain/kernel/local-time";
import { I18nContext } from "./i18n/i18n";

/**
 * `2026-12-03 00:30 +08:00`: an instant in the deployment's `calendar.timeZone`, which the page
 * being rendered carries with its language (like `useT`, so call it while rendering).
 */
export const formatTime = (ms: number) => formatLocalTime(ms, useContext(I18nContext).timeZone);

/** The page's `calendar.timeZone`, for a time field that names the zone its value is read in. */
export const useTimeZone = () => useContext(I18nContext).timeZone;

/** `2026-12-03T00:30`: an instant as a `datetime-local` field shows it, in the page's zone. */
export const inputTime = (ms: number) => localInputValue(ms, useContext(I18nContext).timeZone);

/** An audit detail as JSON text, its `…At` instants in the zone (call it while rendering). */
export const formatDetail = (detail: Readonly<Record<string, unknown>>) =>
  JSON.stringify(withLocalTimes(detail, useContext(I18nContext).timeZone));

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return "—";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * A date input's value (`YYYY-MM-DD`) as that local day's `[start, end)` in the zone, or
 * undefined: "from 12-03" starts at 12-03 00:00 in `calendar.timeZone`, not at UTC midnight.
 */
export function dayRange(
  value: string | undefined,
  timeZone: string,
): { start: number; end: number } | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const { start, end } = dayBounds(value, timeZone);
  // 02-31 would roll over into March: a day that is not on the calendar filters nothing.
  return localDay(start, timeZone) === value ? { start, end } : undefined;
}

/** The text cut to `n` characters (code points), with "…" when it was longer. */
export const clip = (text: string, n: number) =>
  [...text].length > n ? `${[...text].slice(0, n).join("")}…` : text;
