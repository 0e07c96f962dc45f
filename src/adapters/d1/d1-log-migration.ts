/**
 * D1's side of the owner's copy of each chat's log into its object (migrations/0440,
 * docs/storage.md#moving-the-log-into-the-chat-objects): the chat's rows page by page in seq
 * order, exactly as stored, and `log_migration`, one resumable record per chat.
 */
import type { MessageLogRow } from "../../domain/history/message-log-row";

/** A D1 `messages` row as it is stored; the object takes every column but `seq`. */
export type D1LogRow = MessageLogRow & { readonly seq: number };

export type LogMigrationState = "copying" | "verified" | "mismatch" | "skipped";

export type LogMigrationRecord = {
  chatKey: string;
  lastSeq: number;
  copied: number;
  d1Count: number;
  state: LogMigrationState;
  detail: string | null;
  updatedAt: number;
};

export type LogMigrationTotals = {
  chats: number;
  copying: number;
  verified: number;
  mismatch: number;
  skipped: number;
  /** Rows sent to the objects, and D1's rows of the chats copied (skipped chats need none). */
  copied: number;
  rows: number;
};

type RecordRow = {
  chat_key: string;
  last_seq: number;
  copied: number;
  d1_count: number;
  state: LogMigrationState;
  detail: string | null;
  updated_at: number;
};

const toRecord = (r: RecordRow): LogMigrationRecord => ({
  chatKey: r.chat_key,
  lastSeq: r.last_seq,
  copied: r.copied,
  d1Count: r.d1_count,
  state: r.state,
  detail: r.detail,
  updatedAt: r.updated_at,
});

/** One chat's D1 rows, as they are: the owner's migration copies rows as they are. */
export class D1LogPages {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  /** The chat's next rows after D1 seq `after`, in seq order (index messages_chat_seq). */
  async page(chatKey: string, after: number, limit: number): Promise<D1LogRow[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT seq, transport, chat_key, message_id, ts, user_id, account_key, nick, text, tokens, raw_json,
           direction, recalled, reply_to, private_marked
         FROM messages WHERE chat_key = ? AND seq > ? ORDER BY seq LIMIT ?`,
      )
      .bind(chatKey, after, limit)
      .all<D1LogRow>();
    return results;
  }

  /** The chat's rows in D1 now, recalled ones included. */
  async count(chatKey: string): Promise<number> {
    const row = await this.#db
      .prepare("SELECT count(*) AS n FROM messages WHERE chat_key = ?")
      .bind(chatKey)
      .first<{ n: number }>();
    return row?.n ?? 0;
  }
}

/** `log_migration`: where each chat's copy stands. */
export class D1LogMigrationLedger {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  /** A record, `copying` from the start, for every chat with D1 messages that has none yet. */
  async discover(now: number): Promise<number> {
    const r = await this.#db
      .prepare(
        `INSERT INTO log_migration (chat_key, d1_count, state, updated_at)
         SELECT chat_key, count(*), 'copying', ? FROM messages WHERE true GROUP BY chat_key
         ON CONFLICT (chat_key) DO NOTHING`,
      )
      .bind(now)
      .run();
    return r.meta.changes ?? 0;
  }

  async copying(limit: number): Promise<LogMigrationRecord[]> {
    const { results } = await this.#db
      .prepare("SELECT * FROM log_migration WHERE state = 'copying' ORDER BY chat_key LIMIT ?")
      .bind(limit)
      .all<RecordRow>();
    return results.map(toRecord);
  }

  async list(limit: number): Promise<LogMigrationRecord[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT * FROM log_migration
         ORDER BY CASE state WHEN 'mismatch' THEN 0 WHEN 'copying' THEN 1 ELSE 2 END, chat_key LIMIT ?`,
      )
      .bind(limit)
      .all<RecordRow>();
    return results.map(toRecord);
  }

  async inState(state: LogMigrationState): Promise<string[]> {
    const { results } = await this.#db
      .prepare("SELECT chat_key FROM log_migration WHERE state = ? ORDER BY chat_key")
      .bind(state)
      .all<{ chat_key: string }>();
    return results.map((r) => r.chat_key);
  }

  /**
   * Moves the cursor past a page the object took, only from where it was read: of two runs
   * sending the same page, one counts it. False when another run moved it first.
   */
  async advance(chatKey: string, from: number, to: number, rows: number, now: number): Promise<boolean> {
    const r = await this.#db
      .prepare(
        `UPDATE log_migration SET last_seq = ?, copied = copied + ?, updated_at = ?
         WHERE chat_key = ? AND last_seq = ? AND state = 'copying'`,
      )
      .bind(to, rows, now, chatKey, from)
      .run();
    return (r.meta.changes ?? 0) > 0;
  }

  /** The chat's outcome: its state, D1's count at the check and why, if it did not verify. */
  async settle(
    chatKey: string,
    outcome: { state: LogMigrationState; d1Count: number; detail: string | null },
    now: number,
  ): Promise<void> {
    await this.#db
      .prepare(
        "UPDATE log_migration SET state = ?, d1_count = ?, detail = ?, updated_at = ? WHERE chat_key = ?",
      )
      .bind(outcome.state, outcome.d1Count, outcome.detail, now, chatKey)
      .run();
  }

  /**
   * Chats to copy again: from the start after a mismatch (the object keeps what it has; the
   * copy writes each row once), from their cursor after a rollback.
   */
  async reopen(
    chatKeys: readonly string[],
    fromStart: boolean,
    detail: string | null,
    now: number,
  ): Promise<void> {
    if (chatKeys.length === 0) return;
    const restart = fromStart ? "last_seq = 0, copied = 0," : "";
    await this.#db.batch(
      chatKeys.map((key) =>
        this.#db
          .prepare(
            `UPDATE log_migration SET ${restart} state = 'copying', detail = ?, updated_at = ? WHERE chat_key = ?`,
          )
          .bind(detail, now, key),
      ),
    );
  }

  async totals(): Promise<LogMigrationTotals> {
    const row = await this.#db
      .prepare(
        `SELECT count(*) AS chats, coalesce(sum(state = 'copying'), 0) AS copying,
           coalesce(sum(state = 'verified'), 0) AS verified, coalesce(sum(state = 'mismatch'), 0) AS mismatch,
           coalesce(sum(state = 'skipped'), 0) AS skipped, coalesce(sum(copied), 0) AS copied,
           coalesce(sum(CASE WHEN state = 'skipped' THEN 0 ELSE d1_count END), 0) AS rows
         FROM log_migration`,
      )
      .first<LogMigrationTotals>();
    return row ?? { chats: 0, copying: 0, verified: 0, mismatch: 0, skipped: 0, copied: 0, rows: 0 };
  }

  /**
   * Verified or skipped chats whose old D1 rows are still there, with how many: what a confirmed
   * deletion would remove, at most `limit` chats.
   */
  async deletable(limit: number): Promise<{ chatKey: string; rows: number }[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT l.chat_key AS chatKey, (SELECT count(*) FROM messages m WHERE m.chat_key = l.chat_key) AS rows
         FROM log_migration l
         WHERE l.state IN ('verified', 'skipped')
           AND NOT EXISTS (SELECT 1 FROM log_d1_deleted d WHERE d.chat_key = l.chat_key)
         ORDER BY l.chat_key LIMIT ?`,
      )
      .bind(limit)
      .all<{ chatKey: string; rows: number }>();
    return results;
  }

  async markDeleted(chatKey: string, rows: number, by: string | null, now: number): Promise<void> {
    await this.#db
      .prepare(
        `INSERT INTO log_d1_deleted (chat_key, rows, deleted_at, deleted_by) VALUES (?, ?, ?, ?)
         ON CONFLICT (chat_key) DO UPDATE SET rows = rows + excluded.rows, deleted_at = excluded.deleted_at`,
      )
      .bind(chatKey, rows, now, by)
      .run();
  }

  /** Chats whose D1 rows were deleted: no rollback can send their reads back to D1. */
  async deleted(): Promise<Set<string>> {
    const { results } = await this.#db
      .prepare("SELECT chat_key FROM log_d1_deleted")
      .all<{ chat_key: string }>();
    return new Set(results.map((r) => r.chat_key));
  }
}
