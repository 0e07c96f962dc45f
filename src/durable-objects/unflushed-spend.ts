/**
 * Tokens of this chat's model calls that wait in the outbox for the next D1 flush. The cap
 * check adds them to what D1 holds: a burst of turns drained in one alarm flushes only at its
 * end, and without them every turn of the burst would see the spend from before it.
 */
import type { SpendDay } from "../domain/spend/spend-day";

export function unflushedTokens(sql: SqlStorage, day: SpendDay): number {
  return sql
    .exec<{ tokens: number }>(
      `SELECT coalesce(sum(coalesce(json_extract(body, '$.promptTokens'), 0)
                         + coalesce(json_extract(body, '$.completionTokens'), 0)), 0) AS tokens
       FROM outbox WHERE kind = 'usage'
         AND json_extract(body, '$.at') >= ? AND json_extract(body, '$.at') < ?`,
      day.start,
      day.end,
    )
    .one().tokens;
}
