/**
 * The chat's reminders in the object's own SQLite: they survive restarts and deploys, and
 * because they live in the object of the chat they were set in, they can only speak there.
 * A reminder leaves `open` exactly once (sent, failed or cancelled), and its words are cleared
 * when it does: a fired or cancelled reminder keeps no text.
 */
import type { AccountKey } from "../domain/chat/chat-address";
import type { Transport } from "../domain/inbound/inbound-event";
import { err, ok, type Result } from "../domain/kernel/result";
import {
  type CancelError,
  MAX_OPEN_REMINDERS,
  type NewReminder,
  type Reminder,
  type ReminderBook,
  type ReminderChat,
  type ReminderDelivery,
  type ReminderKind,
  type ReminderState,
} from "../domain/reminders/reminder";
import { rewriteTexts } from "./text-rewrite";

/** A reminder with where it goes: what the firing needs. */
export type DueReminder = Reminder & {
  readonly chat: ReminderChat;
  readonly transport: Transport;
  readonly attempts: number;
};

type Row = {
  id: number;
  set_by: string | null;
  set_by_name: string | null;
  text: string;
  due_at: number;
  created_at: number;
  delivery: ReminderDelivery;
  state: ReminderState;
  attempts: number;
  chat: string;
  transport: Transport;
  kind: ReminderKind;
};

/** Rows no longer open are kept this long (the event-id dedupe and the audit trail need less). */
const KEEP_DONE_MS = 30 * 86_400_000;

export class Reminders implements ReminderBook {
  readonly #sql: SqlStorage;
  readonly #storage: DurableObjectStorage;

  constructor(storage: DurableObjectStorage, sql: SqlStorage = storage.sql) {
    this.#storage = storage;
    this.#sql = sql;
  }

  async add(r: NewReminder): Promise<Result<Reminder, { kind: "too-many"; limit: number }>> {
    return this.#storage.transactionSync(() => {
      const again = this.#rows("SELECT * FROM reminders WHERE event_id = ?", r.eventId)[0];
      if (again) return ok(again);
      const open = this.#sql
        .exec<{ n: number }>("SELECT count(*) AS n FROM reminders WHERE state = 'open' AND kind = 'reminder'")
        .one().n;
      if (open >= MAX_OPEN_REMINDERS && (r.kind ?? "reminder") === "reminder")
        return err({ kind: "too-many" as const, limit: MAX_OPEN_REMINDERS });
      this.#sql.exec(
        `INSERT INTO reminders (event_id, set_by, set_by_name, text, due_at, created_at, delivery, state, chat, transport, kind)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)`,
        r.eventId,
        r.setBy,
        r.setByName,
        r.text,
        r.dueAt,
        r.now,
        r.delivery,
        JSON.stringify(r.chat),
        r.transport,
        r.kind ?? "reminder",
      );
      const row = this.#rows("SELECT * FROM reminders WHERE event_id = ?", r.eventId)[0];
      if (!row) throw new Error("reminder insert lost");
      return ok(row);
    });
  }

  async open(): Promise<readonly Reminder[]> {
    return this.#rows(
      "SELECT * FROM reminders WHERE state = 'open' AND kind = 'reminder' ORDER BY due_at, id",
    );
  }

  async cancel(
    id: number,
    by: { account: AccountKey | null; isAdmin: boolean },
  ): Promise<Result<Reminder, CancelError>> {
    return this.#storage.transactionSync(() => {
      const row = this.#rows(
        "SELECT * FROM reminders WHERE id = ? AND state = 'open' AND kind = 'reminder'",
        id,
      )[0];
      if (!row) return err({ kind: "not-found" as const });
      if (!by.isAdmin && (by.account === null || row.setBy !== by.account))
        return err({ kind: "not-yours" as const });
      this.#close(id, "cancelled", null);
      return ok(row);
    });
  }

  /** Open reminders of one delivery due at `now`, earliest first. */
  due(delivery: ReminderDelivery, now: number, limit: number): DueReminder[] {
    if (limit <= 0) return [];
    return this.#rows(
      "SELECT * FROM reminders WHERE state = 'open' AND delivery = ? AND due_at <= ? ORDER BY due_at, id LIMIT ?",
      delivery,
      now,
      limit,
    );
  }

  /** When the next push reminder is due, or null: the alarm must come by then. */
  nextPushAt(): number | null {
    const row = this.#sql
      .exec<{ at: number | null }>(
        "SELECT min(due_at) AS at FROM reminders WHERE state = 'open' AND delivery = 'push'",
      )
      .one();
    return row.at;
  }

  /**
   * The reminder leaves `open` before anything is sent: the caller does this in the
   * transaction that records the send attempt, so no retry can send it again.
   */
  markFired(id: number, now: number): void {
    this.#sql.exec(
      "UPDATE reminders SET state = 'sent', attempts = attempts + 1, fired_at = ?, text = '' WHERE id = ? AND state = 'open'",
      now,
      id,
    );
  }

  /** What the platform said: the message id, or why it failed (nothing goes out again). */
  recordOutcome(id: number, outcome: { messageId: string | null } | { error: string }): void {
    if ("error" in outcome)
      this.#sql.exec("UPDATE reminders SET state = 'failed', error = ? WHERE id = ?", outcome.error, id);
    else this.#sql.exec("UPDATE reminders SET message_id = ? WHERE id = ?", outcome.messageId, id);
  }

  /** The platform refused before delivering (rate limit): open again, due later. */
  reopen(id: number, dueAt: number, text: string): void {
    this.#sql.exec("UPDATE reminders SET state = 'open', due_at = ?, text = ? WHERE id = ?", dueAt, text, id);
  }

  /**
   * Hides a value in the open reminders set since `since` (a closed one's text is already
   * cleared): a value named a secret after it was said, or read by a newer detector
   * (named-after-logging.ts, credential-sweep.ts). Returns the rows changed.
   */
  hide(since: number, hide: (text: string) => string): number {
    return rewriteTexts(
      this.#sql,
      { table: "reminders", key: "id", where: "state = 'open' AND created_at >= ?", params: [since] },
      hide,
    );
  }

  /**
   * Cancels the open reminders `account` set, their text cleared as a closed one's is: a left-out
   * person's words are not said later (account-forget.ts). Returns how many.
   */
  dropAccount(account: string): number {
    return this.#sql.exec(
      "UPDATE reminders SET state = 'cancelled', text = '' WHERE set_by = ? AND state = 'open'",
      account,
    ).rowsWritten;
  }

  /** Drops rows closed more than KEEP_DONE_MS ago. */
  prune(now: number): number {
    return this.#sql.exec(
      "DELETE FROM reminders WHERE state != 'open' AND created_at < ?",
      now - KEEP_DONE_MS,
    ).rowsWritten;
  }

  #close(id: number, state: ReminderState, error: string | null): void {
    this.#sql.exec("UPDATE reminders SET state = ?, error = ?, text = '' WHERE id = ?", state, error, id);
  }

  #rows(query: string, ...bindings: (string | number | null)[]): DueReminder[] {
    return this.#sql
      .exec<Row>(query, ...bindings)
      .toArray()
      .map((r) => ({
        id: r.id,
        setBy: r.set_by as AccountKey | null,
        setByName: r.set_by_name,
        text: r.text,
        dueAt: r.due_at,
        createdAt: r.created_at,
        delivery: r.delivery,
        state: r.state,
        attempts: r.attempts,
        chat: JSON.parse(r.chat) as ReminderChat,
        transport: r.transport,
        kind: r.kind,
      }));
  }
}
