/** D1 `backfill_progress`: one record per OneBot group the backfill works on. */
import type { BackfillProgress, BackfillProgressStore } from "../../domain/backfill/backfill-progress";

type Row = {
  chat_key: string;
  status: BackfillProgress["status"];
  cursor: string | null;
  pages: number;
  fetched: number;
  stored: number;
  skipped: number;
  errors: number;
  last_error: string | null;
  done_reason: string | null;
  restarts: number;
  restart_pages: number;
  started_at: number;
  updated_at: number;
};

const toProgress = (r: Row): BackfillProgress => ({
  chatKey: r.chat_key,
  status: r.status,
  cursor: r.cursor === null ? null : Number(r.cursor),
  pages: r.pages,
  fetched: r.fetched,
  stored: r.stored,
  skipped: r.skipped,
  errors: r.errors,
  lastError: r.last_error,
  doneReason: r.done_reason,
  restarts: r.restarts,
  restartPages: r.restart_pages,
  startedAt: r.started_at,
  updatedAt: r.updated_at,
});

export class D1BackfillProgress implements BackfillProgressStore {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async list(): Promise<BackfillProgress[]> {
    const { results } = await this.#db
      .prepare("SELECT * FROM backfill_progress ORDER BY updated_at DESC, chat_key")
      .all<Row>();
    return results.map(toProgress);
  }

  async get(chatKey: string): Promise<BackfillProgress | null> {
    const row = await this.#db
      .prepare("SELECT * FROM backfill_progress WHERE chat_key = ?")
      .bind(chatKey)
      .first<Row>();
    return row ? toProgress(row) : null;
  }

  async save(p: BackfillProgress): Promise<void> {
    await this.#db
      .prepare(
        `INSERT INTO backfill_progress (chat_key, status, cursor, pages, fetched, stored, skipped, errors, last_error,
           done_reason, restarts, restart_pages, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (chat_key) DO UPDATE SET status = excluded.status, cursor = excluded.cursor, pages = excluded.pages,
           fetched = excluded.fetched, stored = excluded.stored, skipped = excluded.skipped, errors = excluded.errors,
           last_error = excluded.last_error, done_reason = excluded.done_reason, restarts = excluded.restarts,
           restart_pages = excluded.restart_pages, updated_at = excluded.updated_at`,
      )
      .bind(
        p.chatKey,
        p.status,
        p.cursor === null ? null : String(p.cursor),
        p.pages,
        p.fetched,
        p.stored,
        p.skipped,
        p.errors,
        p.lastError,
        p.doneReason,
        p.restarts,
        p.restartPages,
        p.startedAt,
        p.updatedAt,
      )
      .run();
  }

  async knownOneBotGroups(): Promise<string[]> {
    const { results } = await this.#db
      .prepare(
        "SELECT chat_key FROM chats WHERE channel = 'onebot' AND target_type = 'group' ORDER BY chat_key",
      )
      .all<{ chat_key: string }>();
    return results.map((r) => r.chat_key);
  }
}
