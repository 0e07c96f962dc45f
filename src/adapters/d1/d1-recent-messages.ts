/**
 * The newest messages of one chat, read from the D1 message log (`history_recent`, and the
 * listing a filtered history search falls back to), and the display names a chat's messages
 * were sent under (`message_senders`, kept by triggers on the log).
 */
import type { HistoryFilter, HistoryHit, HistoryReader } from "../../domain/history/history-search-port";
import type { RecentMessages } from "../../domain/history/log-history-search";
import { messageGateSql } from "./d1-message-gate";
import { type D1MessageRow, messageFields } from "./d1-message-rows";

type Row = Omit<D1MessageRow, "recalled">;

export class D1RecentMessages implements RecentMessages {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  /** Newest first (ties by seq); `limit` is taken as given, the caller bounds it. */
  async recent(q: { chatKey: string; limit: number } & HistoryFilter & HistoryReader): Promise<HistoryHit[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT seq, chat_key, message_id, ts, nick, text, direction, private_marked FROM messages m
         WHERE m.chat_key = ?1 AND m.recalled = 0 AND m.ts >= ?2 AND m.ts < ?3
           AND (?4 IS NULL OR m.nick IN (SELECT value FROM json_each(?4))) AND ${messageGateSql("m", "?6")}
         ORDER BY m.ts DESC, m.seq DESC LIMIT ?5`,
      )
      .bind(
        q.chatKey,
        q.since ?? 0,
        q.until ?? Number.MAX_SAFE_INTEGER,
        q.senders ? JSON.stringify(q.senders) : null,
        q.limit,
        q.reader,
      )
      .all<Row>();
    return results.map((r) => ({ ...messageFields(r), rank: null }));
  }

  /** The names messages of these chats were sent under, most recently used first. */
  async senders(chatKeys: readonly string[]): Promise<{ chatKey: string; nick: string }[]> {
    if (chatKeys.length === 0) return [];
    const { results } = await this.#db
      .prepare(
        `SELECT chat_key, nick FROM message_senders WHERE chat_key IN (SELECT value FROM json_each(?1))
         ORDER BY last_ts DESC LIMIT 2000`,
      )
      .bind(JSON.stringify(chatKeys))
      .all<{ chat_key: string; nick: string }>();
    return results.map((r) => ({ chatKey: r.chat_key, nick: r.nick }));
  }
}
