/** Notices to the owner over D1 `owner_notices` (migrations/0350_owner_notices.sql). */

import { err, ok, type Result } from "../../domain/kernel/result";
import type { AckError, NoticeBook } from "../../domain/notices/notice-book";
import type { NoticeCount } from "../../domain/notices/notice-policy";
import type { NoticeKind, OwnerNotice } from "../../domain/notices/owner-notice";
import { insertAuditRowIfChanged } from "./d1-audit-log";

type Row = {
  id: number;
  kind: NoticeKind;
  subject: string;
  text: string;
  first_seen: number;
  last_seen: number;
  count: number;
  window_start: number;
  raised_at: number | null;
  notified_at: number | null;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
};

const COLUMNS =
  "id, kind, subject, text, first_seen, last_seen, count, window_start, raised_at, notified_at, acknowledged_at, acknowledged_by";

const notice = (r: Row): OwnerNotice & { windowStart: number } => ({
  id: r.id,
  kind: r.kind,
  subject: r.subject,
  text: r.text,
  firstSeen: r.first_seen,
  lastSeen: r.last_seen,
  count: r.count,
  windowStart: r.window_start,
  raisedAt: r.raised_at,
  notifiedAt: r.notified_at,
  acknowledgedAt: r.acknowledged_at,
  acknowledgedBy: r.acknowledged_by,
});

export class D1OwnerNotices implements NoticeBook {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async count(
    key: { kind: NoticeKind; subject: string },
    next: (before: NoticeCount | null) => NoticeCount & { text: string },
  ): Promise<OwnerNotice> {
    // Read, decide, write only if the row is still as read: two objects counting the same
    // notice at once retry instead of losing a count. The partial unique index keeps one open row.
    for (let attempt = 0; attempt < 4; attempt++) {
      const before = await this.#open(key);
      const n = next(before);
      const write = before
        ? this.#db
            .prepare(
              `UPDATE owner_notices SET text = ?1, first_seen = ?2, last_seen = ?3, count = ?4, window_start = ?5, raised_at = ?6
               WHERE id = ?7 AND count = ?8 AND last_seen = ?9 AND acknowledged_at IS NULL RETURNING ${COLUMNS}`,
            )
            .bind(
              n.text,
              n.firstSeen,
              n.lastSeen,
              n.count,
              n.windowStart,
              n.raisedAt,
              before.id,
              before.count,
              before.lastSeen,
            )
        : this.#db
            .prepare(
              `INSERT INTO owner_notices (kind, subject, text, first_seen, last_seen, count, window_start, raised_at)
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
            )
            .bind(key.kind, key.subject, n.text, n.firstSeen, n.lastSeen, n.count, n.windowStart, n.raisedAt);
      const row = await write.first<Row>();
      if (row) return notice(row);
    }
    throw new Error(`notice ${key.kind} kept changing under its count`);
  }

  async #open(key: { kind: NoticeKind; subject: string }) {
    const row = await this.#db
      .prepare(
        `SELECT ${COLUMNS} FROM owner_notices WHERE kind = ?1 AND subject = ?2 AND acknowledged_at IS NULL`,
      )
      .bind(key.kind, key.subject)
      .first<Row>();
    return row ? notice(row) : null;
  }

  async list(options: { all: boolean; limit: number }): Promise<OwnerNotice[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT ${COLUMNS} FROM owner_notices WHERE raised_at IS NOT NULL ${options.all ? "" : "AND acknowledged_at IS NULL"}
         ORDER BY last_seen DESC, id DESC LIMIT ?1`,
      )
      .bind(options.limit)
      .all<Row>();
    return results.map(notice);
  }

  async acknowledge(
    id: number,
    at: number,
    by: { actor: string; via: string },
  ): Promise<Result<OwnerNotice, AckError>> {
    const [updated] = await this.#db.batch<Row>([
      this.#db
        .prepare(
          `UPDATE owner_notices SET acknowledged_at = ?2, acknowledged_by = ?3
           WHERE id = ?1 AND acknowledged_at IS NULL AND raised_at IS NOT NULL RETURNING ${COLUMNS}`,
        )
        .bind(id, at, by.actor),
      insertAuditRowIfChanged(this.#db, {
        dedupeKey: `notice.ack:${id}:${at}`,
        at,
        actor: by.actor,
        action: "notice.ack",
        chatKey: null,
        target: `#${id}`,
        detail: { via: by.via },
      }),
    ]);
    const row = updated?.results[0];
    if (row) return ok(notice(row));
    return err({ kind: "not-found", what: `open notice #${id}` });
  }

  async claimWaiting(now: number, minIntervalMs: number, limit: number): Promise<OwnerNotice[]> {
    // One statement, so two raisers at once cannot both send: the second sees the first's mark.
    const { results } = await this.#db
      .prepare(
        `UPDATE owner_notices SET notified_at = ?1
         WHERE id IN (SELECT id FROM owner_notices
                      WHERE raised_at IS NOT NULL AND acknowledged_at IS NULL AND notified_at IS NULL
                      ORDER BY raised_at, id LIMIT ?3)
           AND NOT EXISTS (SELECT 1 FROM owner_notices WHERE notified_at > ?1 - ?2)
         RETURNING ${COLUMNS}`,
      )
      .bind(now, minIntervalMs, limit)
      .all<Row>();
    return results.map(notice).sort((a, b) => a.id - b.id);
  }

  async release(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#db
      .prepare(`UPDATE owner_notices SET notified_at = NULL WHERE id IN (${ids.map(() => "?").join(", ")})`)
      .bind(...ids)
      .run();
  }
}
