/**
 * Turns waiting for dreaming, in the chat object's SQLite. A session reset clears the recent
 * turns, not this journal: what was said before a reset still reaches long-term memory. Rows
 * are removed only after the run that read them has committed to D1 (or was given up).
 */
import type { Sensitivity } from "../domain/memory/memory";
import { rewriteTexts } from "./text-rewrite";

export type JournalRow = {
  readonly seq: number;
  readonly role: "user" | "assistant";
  readonly name: string | null;
  readonly account: string | null;
  readonly unionId: string | null;
  readonly messageId: string | null;
  readonly text: string;
  readonly ts: number;
  readonly explicitSensitivity: Sensitivity | null;
};

type StoredRow = {
  seq: number;
  role: "user" | "assistant";
  name: string | null;
  account: string | null;
  union_id: string | null;
  message_id: string | null;
  text: string;
  ts: number;
  explicit_sensitivity: Sensitivity | null;
};

function journalRow(r: StoredRow): JournalRow {
  return {
    seq: r.seq,
    role: r.role,
    name: r.name,
    account: r.account,
    unionId: r.union_id,
    messageId: r.message_id,
    text: r.text,
    ts: r.ts,
    explicitSensitivity: r.explicit_sensitivity,
  };
}

/** Hard cap on waiting rows: a chat whose runs keep failing cannot grow without bound. */
const MAX_ROWS = 2000;

export class DreamJournal {
  readonly #sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Call inside the transaction that records the turn. */
  append(row: Omit<JournalRow, "seq">): void {
    this.#sql.exec(
      `INSERT INTO dream_journal (role, name, account, union_id, message_id, text, ts, explicit_sensitivity)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      row.role,
      row.name,
      row.account,
      row.unionId,
      row.messageId,
      row.text,
      row.ts,
      row.explicitSensitivity,
    );
    this.#sql.exec(
      "DELETE FROM dream_journal WHERE seq NOT IN (SELECT seq FROM dream_journal ORDER BY seq DESC LIMIT ?)",
      MAX_ROWS,
    );
  }

  /** Waiting user turns and the times of the oldest and the newest waiting turn. */
  stats(): { pending: number; newestTs: number | null; oldestTs: number | null } {
    const row = this.#sql
      .exec<{ n: number; newest: number | null; oldest: number | null }>(
        "SELECT count(*) AS n, max(ts) AS newest, min(ts) AS oldest FROM dream_journal WHERE role = 'user'",
      )
      .one();
    return { pending: row.n, newestTs: row.newest, oldestTs: row.oldest };
  }

  /**
   * The oldest rows of the next run: up to `maxUserTurns` user turns and the replies between
   * them, none newer than `settledBefore` — or, when `upTo` is given (a run being retried),
   * exactly the rows up to that seq.
   */
  take(maxUserTurns: number, upTo?: number, settledBefore = Number.MAX_SAFE_INTEGER): JournalRow[] {
    const rows = this.#sql
      .exec<StoredRow>(
        upTo === undefined
          ? "SELECT * FROM dream_journal WHERE ts <= ? ORDER BY seq LIMIT ?"
          : "SELECT * FROM dream_journal WHERE seq <= ? ORDER BY seq",
        ...(upTo === undefined ? [settledBefore, maxUserTurns * 3] : [upTo]),
      )
      .toArray();
    const out: JournalRow[] = [];
    let users = 0;
    for (const r of rows) {
      if (upTo === undefined && r.role === "user" && users === maxUserTurns) break;
      if (r.role === "user") users++;
      out.push(journalRow(r));
    }
    return out;
  }

  /**
   * The user turns after `seq` said no later than `until`: what a run's turns may still be asked
   * about (a request of the minutes after them), read without being taken. MAX_ROWS bounds them.
   */
  after(seq: number, until: number): JournalRow[] {
    return this.#sql
      .exec<StoredRow>(
        "SELECT * FROM dream_journal WHERE seq > ? AND ts <= ? AND role = 'user' ORDER BY seq",
        seq,
        until,
      )
      .toArray()
      .map(journalRow);
  }

  /** Hides a value in the rows since `since` (named-after-logging.ts); returns the rows changed. */
  hide(since: number, hide: (text: string) => string): number {
    return rewriteTexts(
      this.#sql,
      { table: "dream_journal", key: "seq", where: "ts >= ?", params: [since] },
      hide,
    );
  }

  /** Removes every row (the chat is forgotten): nothing of it is dreamed afterwards. */
  clear(): number {
    const n = this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM dream_journal").one().n;
    this.#sql.exec("DELETE FROM dream_journal");
    return n;
  }

  /** Removes one account's turns (a left-out person's past): none of it is dreamed afterwards. */
  dropAccount(account: string): number {
    const n = this.#sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM dream_journal WHERE account = ?", account)
      .one().n;
    if (n > 0) this.#sql.exec("DELETE FROM dream_journal WHERE account = ?", account);
    return n;
  }

  /** Removes the rows of a finished run. */
  consume(upToSeq: number): void {
    this.#sql.exec("DELETE FROM dream_journal WHERE seq <= ?", upToSeq);
  }
}
