/**
 * The chat object's durable inbox: events are written here before the webhook is
 * acknowledged — one INSERT, deduplicated by the unique event id and platform message id —
 * then triaged and drained oldest first by the alarm. A done row keeps its ids (not its
 * payload) as the dedupe record.
 */
import type { InboundEvent } from "../domain/inbound/inbound-event";

export type InboxState = "pending" | "replying" | "done";

export type InboxRow = {
  readonly seq: number;
  readonly eventId: string;
  readonly state: InboxState;
  readonly attempts: number;
  readonly notBefore: number;
  readonly event: InboundEvent;
};

type Raw = {
  seq: number;
  event_id: string;
  state: InboxState;
  attempts: number;
  not_before: number;
  payload: string | null;
};

/**
 * How long done rows are kept as dedupe records: well past QQ's 60-minute C2C window and
 * longer than any webhook replay window (MAX_REPLAY_WINDOW_SECONDS), so that a replayed
 * signed event is either a duplicate or stale.
 */
export const DEDUPE_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Walks the `inbox_open` partial index: the day's done rows are not read. */
export const OLDEST_OPEN_SQL =
  "SELECT seq, event_id, state, attempts, not_before, payload FROM inbox WHERE state != 'done' AND triaged = 1 ORDER BY seq LIMIT 1";

export class Inbox {
  readonly #sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /**
   * Stores an event untriaged, in one statement: false (and nothing written) when an event
   * with this event id or message id was already accepted — both columns are unique, and
   * DO NOTHING covers either conflict.
   */
  accept(event: InboundEvent, needsTurn: boolean, now: number, heldUntil = 0): boolean {
    const inserted = this.#sql
      .exec(
        `INSERT INTO inbox (event_id, message_id, kind, payload, state, received_at, triaged, needs_turn, held_until)
         VALUES (?, ?, ?, ?, 'pending', ?, 0, ?, ?)
         ON CONFLICT DO NOTHING RETURNING seq`,
        event.eventId,
        event.message?.id ?? null,
        event.kind,
        JSON.stringify(event),
        now,
        needsTurn ? 1 : 0,
        heldUntil,
      )
      .toArray();
    return inserted.length > 0;
  }

  /**
   * Accepted rows not yet triaged, oldest first; not a row held for its sender's next message
   * (named-afterwards.ts) until its time has passed.
   */
  untriaged(
    limit: number,
    now = Date.now(),
  ): { seq: number; needsTurn: boolean; receivedAt: number; event: InboundEvent }[] {
    return this.#sql
      .exec<{ seq: number; needs_turn: number; received_at: number; payload: string }>(
        "SELECT seq, needs_turn, received_at, payload FROM inbox WHERE triaged = 0 AND held_until <= ? ORDER BY seq LIMIT ?",
        now,
        limit,
      )
      .toArray()
      .map((r) => ({
        seq: r.seq,
        needsTurn: r.needs_turn === 1,
        receivedAt: r.received_at,
        event: JSON.parse(r.payload) as InboundEvent,
      }));
  }

  /**
   * When the oldest untriaged row that may be triaged now arrived and whether any such row needs
   * a turn; null if none.
   */
  oldestUntriaged(now = Date.now()): { receivedAt: number; needsTurn: boolean } | null {
    const row = this.#sql
      .exec<{ received_at: number | null; needs_turn: number | null }>(
        "SELECT min(received_at) AS received_at, max(needs_turn) AS needs_turn FROM inbox WHERE triaged = 0 AND held_until <= ?",
        now,
      )
      .one();
    return row.received_at === null ? null : { receivedAt: row.received_at, needsTurn: row.needs_turn === 1 };
  }

  /** When the first held row's wait ends, or null with none held. */
  nextRelease(now = Date.now()): number | null {
    return this.#sql
      .exec<{ at: number | null }>(
        "SELECT min(held_until) AS at FROM inbox WHERE triaged = 0 AND held_until > ?",
        now,
      )
      .one().at;
  }

  /** The rows still held for a naming (named-afterwards.ts), oldest first. */
  held(now = Date.now()): { seq: number; event: InboundEvent }[] {
    return this.#events("triaged = 0 AND held_until > ?", now);
  }

  /**
   * The events accepted before row `seq` whose payload is still kept (untriaged, or triaged with
   * their turn still to come or under way), oldest first: where a value sent to the bot waits
   * while its naming is read (named-after-logging.ts).
   */
  openBefore(seq: number): { seq: number; event: InboundEvent }[] {
    return this.#events("state != 'done' AND payload IS NOT NULL AND seq < ?", seq);
  }

  /** The rows `where` selects with their events, oldest first. */
  #events(where: string, param: number): { seq: number; event: InboundEvent }[] {
    return this.#sql
      .exec<{ seq: number; payload: string }>(
        `SELECT seq, payload FROM inbox WHERE ${where} ORDER BY seq`,
        param,
      )
      .toArray()
      .map((r) => ({ seq: r.seq, event: JSON.parse(r.payload) as InboundEvent }));
  }

  /** Replaces a kept row's event, its state unchanged: a value named afterwards masked in it. */
  rewrite(seq: number, event: InboundEvent): void {
    this.#sql.exec(
      "UPDATE inbox SET payload = ? WHERE seq = ? AND payload IS NOT NULL",
      JSON.stringify(event),
      seq,
    );
  }

  /** Ends a row's wait, replacing its event with `masked` when its sender named the value. */
  release(seq: number, masked: InboundEvent | null): void {
    if (masked)
      this.#sql.exec(
        "UPDATE inbox SET held_until = 0, payload = ? WHERE seq = ?",
        JSON.stringify(masked),
        seq,
      );
    else this.#sql.exec("UPDATE inbox SET held_until = 0 WHERE seq = ?", seq);
  }

  /**
   * Makes every untriaged row that needs no turn — or only `account`'s (a left-out person's past,
   * account-forget.ts) — its dedupe record, unread: chatter accepted before a forget, above all a
   * value still held for its naming, must not reach the log after it, triaged with settings read
   * before the forget. Rows waiting for a turn keep theirs: someone is owed an answer. How many.
   */
  dropChatter(now: number, account?: string): number {
    const theirs = account === undefined ? "" : " AND json_extract(payload, '$.sender.account') = ?";
    return this.#sql
      .exec(
        `UPDATE inbox SET triaged = 1, state = 'done', payload = NULL, done_at = ?, held_until = 0
         WHERE triaged = 0 AND needs_turn = 0${theirs} RETURNING seq`,
        now,
        ...(account === undefined ? [] : [account]),
      )
      .toArray().length;
  }

  /** A triaged row waits for its turn, or — needing none — becomes its dedupe record. */
  markTriaged(seq: number, needsTurn: boolean, now: number): void {
    if (needsTurn) this.#sql.exec("UPDATE inbox SET triaged = 1 WHERE seq = ?", seq);
    else
      this.#sql.exec(
        "UPDATE inbox SET triaged = 1, state = 'done', payload = NULL, done_at = ? WHERE seq = ?",
        now,
        seq,
      );
  }

  /** The oldest triaged row waiting for its turn, whether or not its backoff has passed. */
  oldestOpen(): InboxRow | null {
    const raw = this.#sql.exec<Raw>(OLDEST_OPEN_SQL).toArray()[0];
    if (!raw) return null;
    return {
      seq: raw.seq,
      eventId: raw.event_id,
      state: raw.state,
      attempts: raw.attempts,
      notBefore: raw.not_before,
      event: JSON.parse(raw.payload ?? "null") as InboundEvent,
    };
  }

  setState(seq: number, state: InboxState, now: number): void {
    if (state === "done") {
      this.#sql.exec("UPDATE inbox SET state = 'done', payload = NULL, done_at = ? WHERE seq = ?", now, seq);
    } else {
      this.#sql.exec("UPDATE inbox SET state = ? WHERE seq = ?", state, seq);
    }
  }

  /** Records a failed attempt and when to try again. */
  backOff(seq: number, notBefore: number): void {
    this.#sql.exec("UPDATE inbox SET attempts = attempts + 1, not_before = ? WHERE seq = ?", notBefore, seq);
  }

  stateOf(eventId: string): { seq: number; state: InboxState } | null {
    return (
      this.#sql
        .exec<{ seq: number; state: InboxState }>("SELECT seq, state FROM inbox WHERE event_id = ?", eventId)
        .toArray()[0] ?? null
    );
  }

  openCount(): number {
    return this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM inbox WHERE state != 'done'").one().n;
  }

  /** Drops dedupe records older than the retention; how many. */
  prune(now: number): number {
    return this.#sql.exec("DELETE FROM inbox WHERE state = 'done' AND done_at < ?", now - DEDUPE_RETENTION_MS)
      .rowsWritten;
  }
}
