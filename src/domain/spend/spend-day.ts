/**
 * The day a spend cap counts over: from midnight to midnight in the configured IANA time zone
 * (daylight-saving days are 23 or 25 hours long), by the kernel's local-day arithmetic.
 */
import { dayBounds, localDay } from "../kernel/local-day";

export type SpendDay = {
  /** Local calendar date, `YYYY-MM-DD`. */
  readonly day: string;
  /** Epoch ms of local midnight starting the day (inclusive). */
  readonly start: number;
  /** Epoch ms of the next local midnight (exclusive). */
  readonly end: number;
};

export function spendDay(now: number, timeZone: string): SpendDay {
  const day = localDay(now, timeZone);
  return { day, ...dayBounds(day, timeZone) };
}
