/**
 * Aggregates for the admin API and the overview page: model usage per model, day and chat,
 * and the counts and sizes of what is stored. Days are the caller's local days (`YYYY-MM-DD`
 * in `calendar.timeZone`, with their bounds): the caller computes them, so SQL never guesses a
 * zone and a chart splits where "昨天" splits (docs/decisions/0270-one-clock.md).
 *
 * Messages are counted from `chat_log_counts` (migration 0450), not D1's `messages`, which no
 * longer holds the chats whose log lives in their objects: counts per chat and UTC hour, kept by
 * each chat's object or by D1's triggers. Hours, because a local day of a whole-hour zone is a
 * run of whole hours, so summing the hours in [start, end) counts the day exactly; in a
 * half-hour zone a day's edge is off by up to 30 minutes, in these counts only.
 */
import type { DayWindow } from "../../domain/kernel/local-day";

export type UsageRow = {
  model: string;
  provider: string;
  calls: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  avgLatencyMs: number;
};

export type Usage = {
  readonly since: number;
  readonly total: UsageRow[];
  readonly byDay: (UsageRow & { day: string })[];
  readonly byChat: (UsageRow & { chatKey: string | null })[];
};

const USAGE_COLUMNS = `model, provider, count(*) AS calls, sum(ok = 0) AS errors,
  coalesce(sum(prompt_tokens), 0) AS promptTokens, coalesce(sum(completion_tokens), 0) AS completionTokens,
  cast(round(avg(latency_ms)) AS INTEGER) AS avgLatencyMs`;

/**
 * The local days as one JSON parameter (`[[day, start, end], …]`, read by json_each): a year of
 * days would exceed D1's bound-parameter limit as separate parameters.
 */
const daysParam = (days: readonly DayWindow[]) => JSON.stringify(days.map((d) => [d.day, d.start, d.end]));
const DAY_OF = (column: string) =>
  `json_each(?4) AS d ON ${column} >= json_extract(d.value, '$[1]') AND ${column} < json_extract(d.value, '$[2]')`;

export type Stats = {
  readonly chats: number;
  readonly messages: number;
  readonly messagesByDay: { day: string; messages: number }[];
  readonly memoryByKind: { kind: string; status: string; items: number }[];
  readonly kbNodes: number;
  readonly nodes: number;
  readonly auditRows: number;
  /** Bytes of the D1 database, as D1 reports after a query. */
  readonly databaseBytes: number | null;
};

/** A model call that failed, as the overview's recent errors list it. */
export type FailedCall = { at: number; source: string; message: string };

/** The oldest message still kept per chat type (to its hour), and how many there are. */
export type KeptMessages = { targetType: string; oldest: number | null; messages: number };

export class D1AdminStats {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  /** Usage within `days` (oldest first, contiguous), per model, per local day and per chat. */
  async usage(days: readonly DayWindow[], chat?: string): Promise<Usage> {
    const since = days[0]?.start ?? 0;
    const until = days.at(-1)?.end ?? 0;
    const chatCondition = chat ? "AND chat_key = ?3" : "";
    const binds = chat ? [since, until, chat] : [since, until];
    const where = `WHERE at >= ?1 AND at < ?2 ${chatCondition}`;
    const [total, byDay, byChat] = await this.#db.batch([
      this.#db
        .prepare(
          `SELECT ${USAGE_COLUMNS} FROM model_usage ${where} GROUP BY model, provider ORDER BY calls DESC`,
        )
        .bind(...binds),
      this.#db
        .prepare(
          `SELECT json_extract(d.value, '$[0]') AS day, ${USAGE_COLUMNS} FROM model_usage JOIN ${DAY_OF("at")}
           ${where} GROUP BY day, model, provider ORDER BY day DESC, calls DESC`,
        )
        .bind(since, until, chat ?? null, daysParam(days)),
      this.#db
        .prepare(
          `SELECT chat_key AS chatKey, ${USAGE_COLUMNS} FROM model_usage ${where}
           GROUP BY chat_key, model, provider ORDER BY calls DESC LIMIT 200`,
        )
        .bind(...binds),
    ]);
    return {
      since,
      total: (total?.results ?? []) as UsageRow[],
      byDay: (byDay?.results ?? []) as Usage["byDay"],
      byChat: (byChat?.results ?? []) as Usage["byChat"],
    };
  }

  /** Counts, messages per local day of `days` (each summed over the hour index), and the database size. */
  async stats(days: readonly DayWindow[]): Promise<Stats> {
    const [counts, byDay, memory] = await this.#db.batch([
      this.#db.prepare(
        `SELECT (SELECT count(*) FROM chats) AS chats,
           (SELECT coalesce(sum(messages), 0) FROM chat_log_counts) AS messages,
           (SELECT count(*) FROM nodes WHERE collection IS NOT NULL) AS kbNodes,
           (SELECT count(*) FROM nodes) AS nodes, (SELECT count(*) FROM audit_log) AS auditRows`,
      ),
      this.#db
        .prepare(
          `SELECT json_extract(d.value, '$[0]') AS day,
             (SELECT coalesce(sum(messages), 0) FROM chat_log_counts WHERE hour >= json_extract(d.value, '$[1]')
               AND hour < json_extract(d.value, '$[2]')) AS messages
           FROM json_each(?1) AS d ORDER BY day`,
        )
        .bind(daysParam(days)),
      this.#db.prepare(
        `SELECT coalesce(kind, '') AS kind, status, count(*) AS items FROM nodes
         WHERE node_type = 'memory' GROUP BY kind, status ORDER BY items DESC`,
      ),
    ]);
    const c = (counts?.results[0] ?? {}) as Record<string, number>;
    const size = (counts?.meta as { size_after?: number } | undefined)?.size_after;
    return {
      chats: c.chats ?? 0,
      messages: c.messages ?? 0,
      messagesByDay: ((byDay?.results ?? []) as Stats["messagesByDay"]).filter((d) => d.messages > 0),
      memoryByKind: (memory?.results ?? []) as Stats["memoryByKind"],
      kbNodes: c.kbNodes ?? 0,
      nodes: c.nodes ?? 0,
      auditRows: c.auditRows ?? 0,
      databaseBytes: typeof size === "number" ? size : null,
    };
  }

  /** The newest failed model calls (model_usage records every call). */
  async failedCalls(limit: number): Promise<FailedCall[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT at, provider || ' ' || model || ' (' || purpose || ')' AS source, coalesce(error_kind, 'failed') AS message
         FROM model_usage WHERE ok = 0 ORDER BY at DESC LIMIT ?1`,
      )
      .bind(limit)
      .all<FailedCall>();
    return results;
  }

  /**
   * Per chat type: the hour of the oldest message still kept and the count (retention as the
   * overview shows it).
   */
  async keptMessages(): Promise<KeptMessages[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT coalesce(c.target_type, 'unknown') AS targetType, min(k.hour) AS oldest, sum(k.messages) AS messages
         FROM chat_log_counts k LEFT JOIN chats c ON c.chat_key = k.chat_key
         WHERE k.messages > 0 GROUP BY 1 ORDER BY 1`,
      )
      .all<KeptMessages>();
    return results;
  }
}
