/**
 * The log's hourly counts waiting for D1 (chat-log-counts-schema.ts), sent only while this
 * object holds the chat's whole log (chat-log-home.ts); before that, every message of the chat
 * reaches D1 and D1 counts its own rows (migration 0450). The first batch after the move
 * carries every hour, and D1 starts from those. A bucket leaves `dirty` only after the D1 batch
 * that carried it succeeded, and only if its count is still the one carried: a message logged
 * while the batch was in flight marks it for the next one.
 */
import type { ChatLogCounts } from "../domain/history/message-log";

/** Meta key: the chat whose counts D1 takes from this object (set once D1 took the first batch). */
const SENT = "log_counts_in_d1";

export class LogCounts {
  readonly #sql: SqlStorage;
  readonly #whole: () => boolean;

  /** `whole`: whether this object holds the chat's whole log. */
  constructor(sql: SqlStorage, whole: () => boolean) {
    this.#sql = sql;
    this.#whole = whole;
  }

  /** Whether a batch has counts to carry (over the partial index: no table walk). */
  pending(): boolean {
    const sent = this.#sent();
    if (!this.#whole()) return sent !== null;
    const which = sent === null ? "" : "WHERE dirty = 1";
    return this.#sql.exec(`SELECT 1 FROM log_counts ${which} LIMIT 1`).toArray().length > 0;
  }

  /** Up to `limit` changed hours, per chat (one, in a chat's own object). */
  take(limit: number): ChatLogCounts[] {
    const sent = this.#sent();
    if (!this.#whole())
      return sent === null ? [] : [{ chatKey: sent, hours: [], lastAt: null, whole: false }];
    // D1 starts this chat's counts from the object's: every hour goes, not only the changed.
    if (sent === null) this.#sql.exec("UPDATE log_counts SET dirty = 1 WHERE dirty = 0");
    const rows = this.#sql
      .exec<{ chat_key: string; hour: number; messages: number }>(
        "SELECT chat_key, hour, messages FROM log_counts WHERE dirty = 1 ORDER BY chat_key, hour LIMIT ?",
        limit,
      )
      .toArray();
    const byChat = new Map<string, { hour: number; messages: number }[]>();
    for (const r of rows) {
      const hours = byChat.get(r.chat_key) ?? [];
      hours.push({ hour: r.hour, messages: Math.max(0, r.messages) });
      byChat.set(r.chat_key, hours);
    }
    return [...byChat].map(([chatKey, hours]) => ({
      chatKey,
      hours,
      lastAt: this.#lastAt(chatKey),
      whole: true,
    }));
  }

  /** After D1 accepted `taken`: those hours are clean unless they changed since; empty hours go. */
  settle(taken: readonly ChatLogCounts[]): void {
    for (const c of taken) {
      if (!c.whole) {
        this.#sql.exec("DELETE FROM meta WHERE key = ?", SENT);
        continue;
      }
      for (const h of c.hours)
        this.#sql.exec(
          "UPDATE log_counts SET dirty = 0 WHERE chat_key = ? AND hour = ? AND max(messages, 0) = ?",
          c.chatKey,
          h.hour,
          h.messages,
        );
      this.#sql.exec(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
        SENT,
        JSON.stringify(c.chatKey),
      );
    }
    if (taken.length > 0) this.#sql.exec("DELETE FROM log_counts WHERE dirty = 0 AND messages <= 0");
  }

  #sent(): string | null {
    const row = this.#sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", SENT).toArray()[0];
    return row ? (JSON.parse(row.value) as string) : null;
  }

  /** Over the (chat_key, ts) index: one seek, not a walk. */
  #lastAt(chatKey: string): number | null {
    return this.#sql
      .exec<{ at: number | null }>("SELECT max(ts) AS at FROM messages WHERE chat_key = ?", chatKey)
      .one().at;
  }
}
