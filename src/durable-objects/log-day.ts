/**
 * One local day of this chat's log for its daily summary, asked by the cron (daily-summaries-job.ts):
 * read here, by the object that holds the log, where it is kept (chat-log-home.ts). An object
 * that has never seen its chat has logged nothing of it, so its rows can only be in D1. A caller
 * naming another chat is refused: each object answers for its own chat alone.
 */
import { type LogDays, objectLogDays } from "../composition/chat-object/chat-object-door";
import type { DayMessage } from "../domain/summary/day-message";
import { logHomeOf } from "./chat-log-home";

export type LogDayQuery = {
  readonly chatKey: string;
  readonly start: number;
  readonly end: number;
  readonly limit: number;
  /** Accounts never read (privacy.doNotRecord). */
  readonly leftOut: readonly string[];
};

export function readLogDay(
  d: {
    readonly env: Env;
    readonly storage: DurableObjectStorage;
    readonly sql: SqlStorage;
    readonly chatKey: () => string | null;
  },
  q: LogDayQuery,
): Promise<DayMessage[]> {
  const own = d.chatKey();
  if (own !== null && own !== q.chatKey) throw new Error(`this object holds ${own}, not ${q.chatKey}`);
  const here = own !== null && logHomeOf(d.sql) === "object";
  const days: LogDays = objectLogDays(d.env, d.storage, here);
  return days.dayMessages(q.chatKey, q.start, q.end, q.limit, q.leftOut);
}
