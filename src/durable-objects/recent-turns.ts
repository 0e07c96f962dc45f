/** Short-term context of one chat: its last turns, oldest first, capped in size. */
import type { RecentTurn } from "../domain/agent/turn-context";
import { rewriteTexts } from "./text-rewrite";

/** Hard cap on stored rows, whatever the setting says, so the table cannot grow unbounded. */
const MAX_ROWS = 200;

export class RecentTurns {
  readonly #sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  list(limit: number): RecentTurn[] {
    if (limit <= 0) return [];
    return this.#sql
      .exec<{ role: RecentTurn["role"]; name: string | null; text: string; ts: number; held: number }>(
        "SELECT role, name, text, ts, held FROM (SELECT * FROM recent_turns ORDER BY ts DESC, seq DESC LIMIT ?) ORDER BY ts, seq",
        limit,
      )
      .toArray()
      .map((r) => ({
        role: r.role,
        name: r.name,
        text: r.text,
        ts: r.ts,
        ...(r.held !== 0 ? { held: true } : {}),
      }));
  }

  /** `account`: the account key of the person whose turn it is; null for the bot's replies. */
  append(turn: RecentTurn, account: string | null): void {
    this.#sql.exec(
      "INSERT INTO recent_turns (role, name, text, ts, account, held) VALUES (?, ?, ?, ?, ?, ?)",
      turn.role,
      turn.name,
      turn.text,
      turn.ts,
      account,
      turn.held === true ? 1 : 0,
    );
    // Only the rows past the cap are visited (the index, newest first, skips the kept ones).
    this.#sql.exec(
      "DELETE FROM recent_turns WHERE seq IN (SELECT seq FROM recent_turns ORDER BY ts DESC, seq DESC LIMIT -1 OFFSET ?)",
      MAX_ROWS,
    );
  }

  /**
   * A forgotten person's turns (account-forget.ts), and every user turn kept before turns named
   * their account: those cannot be told apart, and a short-term context loses little by them.
   * The bot's replies stay, as they do in the log. Returns the rows dropped.
   */
  dropAccount(account: string): number {
    return this.#sql.exec(
      "DELETE FROM recent_turns WHERE account = ? OR (account IS NULL AND role = 'user')",
      account,
    ).rowsWritten;
  }

  /** The last user turn of `account` between `from` and `to` (named-after-logging.ts). */
  lastOf(account: string, from: number, to: number): { text: string; ts: number } | null {
    return (
      this.#sql
        .exec<{ text: string; ts: number }>(
          "SELECT text, ts FROM recent_turns WHERE role = 'user' AND account = ? AND ts BETWEEN ? AND ? ORDER BY seq DESC LIMIT 1",
          account,
          from,
          to,
        )
        .toArray()[0] ?? null
    );
  }

  /** Hides a value in the turns since `since` (named-after-logging.ts); returns the rows changed. */
  hide(since: number, hide: (text: string) => string): number {
    return rewriteTexts(
      this.#sql,
      { table: "recent_turns", key: "seq", where: "ts >= ?", params: [since] },
      hide,
    );
  }

  /** Clears short-term context only (session reset); long-term memory is elsewhere. Returns rows cleared. */
  clear(): number {
    const n = this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM recent_turns").one().n;
    this.#sql.exec("DELETE FROM recent_turns");
    return n;
  }
}
