/**
 * The day's spend from D1's per-hour usage counters (`model_usage_hourly`, kept by a trigger
 * on `model_usage`): one statement reading at most 25 rows per key for a cap check, and the
 * day's totals for the admin API.
 */
import type { SpendDay } from "../../domain/spend/spend-day";
import type { SpendLedger, SpendTotalsRead } from "../../domain/spend/spend-ledger";

const HOUR_MS = 3_600_000;

/** Hours overlapping the day; a zone with a half-hour offset starts its day on the hour before. */
const hours = (day: SpendDay) => [Math.floor(day.start / HOUR_MS), Math.ceil(day.end / HOUR_MS)] as const;

export type SpendToday = {
  readonly global: { calls: number; tokens: number };
  /** The day's chats by tokens spent, most first. */
  readonly chats: { chatKey: string; calls: number; tokens: number }[];
};

export class D1SpendLedger implements SpendLedger {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async spent(chatKey: string, day: SpendDay): Promise<SpendTotalsRead> {
    const [from, to] = hours(day);
    const rows = await this.#db
      .prepare(
        `SELECT chat_key AS chatKey, sum(tokens) AS tokens FROM model_usage_hourly
         WHERE chat_key IN (?1, '*') AND hour >= ?2 AND hour < ?3 GROUP BY chat_key`,
      )
      .bind(chatKey, from, to)
      .all<{ chatKey: string; tokens: number }>();
    let chat = 0;
    let global = 0;
    for (const r of rows.results) {
      if (r.chatKey === "*") global = r.tokens;
      else chat = r.tokens;
    }
    return { chat, global };
  }

  /** Today's total and the chats that spent most (at most `limit`). */
  async today(day: SpendDay, limit: number, chat?: string): Promise<SpendToday> {
    const [from, to] = hours(day);
    const [total, chats] = await this.#db.batch([
      this.#db
        .prepare(
          `SELECT coalesce(sum(calls), 0) AS calls, coalesce(sum(tokens), 0) AS tokens
           FROM model_usage_hourly WHERE chat_key = '*' AND hour >= ?1 AND hour < ?2`,
        )
        .bind(from, to),
      this.#db
        .prepare(
          `SELECT chat_key AS chatKey, sum(calls) AS calls, sum(tokens) AS tokens FROM model_usage_hourly
           WHERE chat_key <> '*' AND hour >= ?1 AND hour < ?2 ${chat ? "AND chat_key = ?4" : ""}
           GROUP BY chat_key ORDER BY tokens DESC LIMIT ?3`,
        )
        .bind(from, to, limit, ...(chat ? [chat] : [])),
    ]);
    const g = (total?.results[0] ?? { calls: 0, tokens: 0 }) as { calls: number; tokens: number };
    return { global: g, chats: (chats?.results ?? []) as SpendToday["chats"] };
  }
}
