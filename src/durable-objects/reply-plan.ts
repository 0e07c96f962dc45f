/**
 * Replies a turn decided on, persisted before the first send. Sending walks the plan; each
 * reply is marked sent right after the platform accepts it, so a retried alarm sends only
 * what is left, with the same msg_seq (the platform rejects a repeat as a duplicate).
 */
import { rewriteTexts } from "./text-rewrite";

export type PlannedReply = {
  readonly idx: number;
  readonly text: string;
  readonly state: "planned" | "sent" | "failed";
  readonly attempts: number;
  readonly messageId: string | null;
  /** Its turn held words that must stay in this chat (turn-privacy.ts): logged as marked. */
  readonly held: boolean;
};

export class ReplyPlan {
  readonly #sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Call inside the transaction that moves the inbox row to `replying`. */
  plan(inboxSeq: number, texts: readonly string[], held = false): void {
    texts.forEach((text, idx) => {
      this.#sql.exec(
        "INSERT OR IGNORE INTO replies (inbox_seq, idx, text, state, held) VALUES (?, ?, ?, 'planned', ?)",
        inboxSeq,
        idx,
        text,
        held ? 1 : 0,
      );
    });
  }

  list(inboxSeq: number): PlannedReply[] {
    return this.#sql
      .exec<{
        idx: number;
        text: string;
        state: PlannedReply["state"];
        attempts: number;
        message_id: string | null;
        held: number;
      }>(
        "SELECT idx, text, state, attempts, message_id, held FROM replies WHERE inbox_seq = ? ORDER BY idx",
        inboxSeq,
      )
      .toArray()
      .map((r) => ({
        idx: r.idx,
        text: r.text,
        state: r.state,
        attempts: r.attempts,
        messageId: r.message_id,
        held: r.held !== 0,
      }));
  }

  markSent(inboxSeq: number, idx: number, messageId: string | null, at: number): void {
    this.#sql.exec(
      "UPDATE replies SET state = 'sent', message_id = ?, sent_at = ?, attempts = attempts + 1 WHERE inbox_seq = ? AND idx = ?",
      messageId,
      at,
      inboxSeq,
      idx,
    );
  }

  markAttempt(inboxSeq: number, idx: number, error: string): void {
    this.#sql.exec(
      "UPDATE replies SET attempts = attempts + 1, error = ? WHERE inbox_seq = ? AND idx = ?",
      error,
      inboxSeq,
      idx,
    );
  }

  markFailed(inboxSeq: number, idx: number, error: string): void {
    this.#sql.exec(
      "UPDATE replies SET state = 'failed', attempts = attempts + 1, error = ? WHERE inbox_seq = ? AND idx = ?",
      error,
      inboxSeq,
      idx,
    );
  }

  /**
   * Hides a value in the replies sent since `since` or not sent yet (named-after-logging.ts);
   * returns the rows changed.
   */
  hide(since: number, hide: (text: string) => string): number {
    const rows = {
      table: "replies",
      key: "rowid",
      where: "sent_at IS NULL OR sent_at >= ?",
      params: [since],
    };
    return rewriteTexts(this.#sql, rows, hide);
  }

  /** Keeps plans only as long as the inbox keeps the rows they belong to. */
  pruneOrphans(): void {
    this.#sql.exec("DELETE FROM replies WHERE inbox_seq NOT IN (SELECT seq FROM inbox)");
  }
}
