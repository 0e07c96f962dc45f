/**
 * Questions about the past (docs/memory.md#validity-in-time): "我以前住在哪", "我去年在哪工作",
 * "where did I live before", "2025年我在学什么". Recall shows current items by default; a
 * question like these also makes closed items eligible, and a period it names ("去年", "2025年",
 * "5月2日", read in `calendar.timeZone` by the history date parser) prefers the items that were
 * true in it. Offline and deterministic: a small word list, no model.
 */
import { type DateRange, resolveDateRange } from "../history/date-range";
import { midnight } from "../kernel/local-day";
import { type MemoryItem, validFromOf } from "./memory";

export type AsOf = {
  /** The question asks about the past: closed items may answer it. */
  readonly past: boolean;
  /** The period it names, when it names one: [since, until). */
  readonly range: Pick<DateRange, "since" | "until"> | null;
};

export const CURRENT: AsOf = { past: false, range: null };

const PAST_WORDS =
  /以前|之前|从前|过去|原来|本来|曾经|当时|那时|那会儿|早先|先前|上次|去年|前年|小时候|\bbefore\b|\bused to\b|\bpreviously\b|\bformerly\b|\bprior\b|\bback then\b|\bin the past\b|\blast year\b|\bdid i\b|\bwas i\b/iu;

/** A bare year ("2025年", "in 2024"), which the date parser does not read as a whole year. */
const YEAR = /(?:^|[^\d])((?:19|20)\d{2})\s*年(?!\s*\d{1,2}\s*月)|\bin\s+((?:19|20)\d{2})\b/u;

/** How a question places itself in time, at `now` in `timeZone`. */
export function asOfQuestion(text: string, ref: { now: number; timeZone: string }): AsOf {
  const year = YEAR.exec(text);
  const y = Number(year?.[1] ?? year?.[2]);
  const range = year
    ? { since: midnight(y, 1, 1, ref.timeZone), until: midnight(y + 1, 1, 1, ref.timeZone) }
    : safeRange(text, ref);
  // A period that has ended is the past; "今天" and "this year" are not by themselves.
  const ended = range !== null && range.until <= ref.now;
  const past = PAST_WORDS.test(text) || ended;
  return { past, range: past && range && range.since < ref.now ? range : null };
}

function safeRange(text: string, ref: { now: number; timeZone: string }): AsOf["range"] {
  try {
    const r = resolveDateRange(text, ref);
    return r ? { since: r.since, until: r.until } : null;
  } catch {
    return null;
  }
}

/** Whether an item was true at some moment of [since, until). */
export function validDuring(
  item: Pick<MemoryItem, "validFrom" | "validTo" | "createdAt">,
  range: NonNullable<AsOf["range"]>,
): boolean {
  const from = validFromOf(item);
  const to = item.validTo ?? Number.POSITIVE_INFINITY;
  return from < range.until && to > range.since;
}

/**
 * How much a question about the past favours an item: within a named period, what was true in
 * it; without one, what has since been closed — the question asks for what is no longer so.
 * A current question weighs every item the same (and sees no closed one).
 */
export function asOfWeight(item: MemoryItem, asOf: AsOf): number {
  if (!asOf.past) return 1;
  if (asOf.range) return validDuring(item, asOf.range) ? 2 : 0.5;
  return item.status === "superseded" ? 2 : 1;
}
