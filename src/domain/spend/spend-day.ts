/**
 * The day a spend cap counts over: from midnight to midnight in the configured IANA time zone
 * (daylight-saving days are 23 or 25 hours long). Plain `Intl`, so the domain needs no runtime.
 */

export type SpendDay = {
  /** Local calendar date, `YYYY-MM-DD`. */
  readonly day: string;
  /** Epoch ms of local midnight starting the day (inclusive). */
  readonly start: number;
  /** Epoch ms of the next local midnight (exclusive). */
  readonly end: number;
};

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

export function isTimeZone(value: string): boolean {
  if (value.trim() === "") return false;
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

type Local = { y: number; m: number; d: number; h: number; min: number; s: number };

function local(at: number, timeZone: string): Local {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(at)))
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  return {
    y: parts.year ?? 1970,
    m: parts.month ?? 1,
    d: parts.day ?? 1,
    h: parts.hour ?? 0,
    min: parts.minute ?? 0,
    s: parts.second ?? 0,
  };
}

/** The zone's offset from UTC at `at`, in ms (Asia/Shanghai: +8 h). */
function offsetAt(at: number, timeZone: string): number {
  const l = local(at, timeZone);
  const asUtc = Date.UTC(l.y, l.m - 1, l.d, l.h, l.min, l.s);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** Epoch ms of local midnight of the calendar date y-m-d in the zone. */
function midnight(y: number, m: number, d: number, timeZone: string): number {
  const wall = Date.UTC(y, m - 1, d);
  // Two passes settle the offset even when midnight is near a daylight-saving change.
  let guess = wall - offsetAt(wall, timeZone);
  guess = wall - offsetAt(guess, timeZone);
  return guess;
}

export function spendDay(now: number, timeZone: string): SpendDay {
  const l = local(now, timeZone);
  const start = midnight(l.y, l.m, l.d, timeZone);
  const next = new Date(Date.UTC(l.y, l.m - 1, l.d + 1));
  const end = midnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
  const day = `${String(l.y).padStart(4, "0")}-${String(l.m).padStart(2, "0")}-${String(l.d).padStart(2, "0")}`;
  return { day, start, end };
}
