/**
 * The writer of this chat's message log in the object's own SQLite (chat-log-schema.ts):
 * inbound messages as they are triaged, replies as they are sent, recall marks. Each write runs
 * in the caller's synchronous transaction (with the outbox row that carries the same record to
 * D1 while the chat's log is still read there), so the two never disagree on what was logged. Idempotent on
 * the log's unique key (transport, chat, message id, time): a retried triage or backfill page
 * writes nothing twice.
 */
import type { RecallMark } from "../domain/history/message-log";
import { type MessageLogRow, recordOfLogRow } from "../domain/history/message-log-row";
import type { MessageRecord } from "../domain/history/message-record";
import { emptyIndexes } from "./fts-erase";
import type { OutboxItem } from "./outbox";

const STORE_OFF = "log_store_off";

export class LocalLog {
  readonly #sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Writes the row unless the chat's storage is switched off; true when a row was added. */
  append(m: MessageRecord): boolean {
    if (this.storeOff()) return false;
    const added = this.#sql
      .exec(
        `INSERT INTO messages (transport, chat_key, message_id, ts, user_id, account_key, nick, text, tokens,
           raw_json, direction, reply_to, private_marked)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING seq`,
        m.transport,
        m.chatKey,
        m.messageId,
        m.ts,
        m.userId,
        m.accountKey,
        m.nick,
        m.text,
        m.tokens,
        m.rawJson,
        m.direction,
        m.replyTo ?? null,
        m.privateMarked ?? 0,
      )
      .toArray();
    return added.length > 0;
  }

  /** The platform withdrew a message: it stays (archived) but is no longer read or windowed. */
  recall(r: RecallMark): void {
    this.#sql.exec(
      "UPDATE messages SET recalled = 1 WHERE transport = ? AND chat_key = ? AND message_id = ? AND recalled = 0",
      r.transport,
      r.chatKey,
      r.messageId,
    );
  }

  /** The last message `account` sent between `from` and `to`, by arrival (named-after-logging.ts). */
  lastFrom(account: string, from: number, to: number): { text: string; ts: number } | null {
    return (
      this.#sql
        .exec<{ text: string; ts: number }>(
          `SELECT text, ts FROM messages WHERE direction = 'in' AND account_key = ? AND ts BETWEEN ? AND ?
           ORDER BY seq DESC LIMIT 1`,
          account,
          from,
          to,
        )
        .toArray()[0] ?? null
    );
  }

  /**
   * Rewrites the rows logged since `since` that `rewrite` changes — text, raw payload and tokens,
   * the full-text index and the turn windows following by the log's triggers — and returns them
   * as rewritten: a value named a secret after it was logged (named-after-logging.ts).
   */
  rewriteSince(since: number, rewrite: (r: MessageRecord) => MessageRecord): MessageRecord[] {
    const rows = this.#sql
      .exec<MessageLogRow & { seq: number }>("SELECT * FROM messages WHERE ts >= ? ORDER BY ts, seq", since)
      .toArray();
    const changed: MessageRecord[] = [];
    for (const row of rows) {
      const before = recordOfLogRow(row);
      const after = rewrite(before);
      if (after === before) continue;
      this.#sql.exec(
        "UPDATE messages SET text = ?, tokens = ?, raw_json = ? WHERE seq = ?",
        after.text,
        after.tokens,
        after.rawJson,
        row.seq,
      );
      changed.push(after);
    }
    return changed;
  }

  /**
   * The chat's storage switch (`/session store off`), kept here because every log write of the
   * chat happens here: while off, nothing is appended (as the D1 trigger drops rows there).
   */
  setStoreOff(off: boolean): void {
    if (off)
      this.#sql.exec(
        "INSERT INTO meta (key, value) VALUES (?, 'true') ON CONFLICT (key) DO UPDATE SET value = 'true'",
        STORE_OFF,
      );
    else this.#sql.exec("DELETE FROM meta WHERE key = ?", STORE_OFF);
  }

  storeOff(): boolean {
    return this.#sql.exec("SELECT 1 FROM meta WHERE key = ?", STORE_OFF).toArray().length > 0;
  }

  /**
   * Every row of the log, recalled ones included: what a forget of the chat removes. Counted
   * first, as D1's forget counts its rows: the messages (each one FTS row), their turn windows and
   * the conversation sessions; the triggers remove the windows, sessions and FTS rows with them.
   */
  clear(): { messages: number; windows: number; sessions: number } {
    const count = (table: string) =>
      this.#sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).one().n;
    const counts = {
      messages: this.count(),
      windows: count("message_windows"),
      sessions: count("conversation_sessions"),
    };
    this.#sql.exec("DELETE FROM messages");
    // Nothing is left to index: the forgotten words leave the indexes' pages too.
    emptyIndexes(this.#sql);
    return counts;
  }

  count(): number {
    return this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages").one().n;
  }
}

/**
 * What of an outbox row belongs in this chat's log: its own messages and recall marks, written
 * here; true when the row was one of them. A row of another chat (a message `send_message`
 * relayed there) belongs to that chat's log.
 */
export function keepInLog(log: LocalLog, chatKey: string | null, item: OutboxItem): boolean {
  if (chatKey === null) return false;
  if (item.kind === "message" && item.body.chatKey === chatKey) {
    log.append(item.body);
    return true;
  }
  if (item.kind === "recall" && item.body.chatKey === chatKey) {
    log.recall(item.body);
    return true;
  }
  return false;
}
