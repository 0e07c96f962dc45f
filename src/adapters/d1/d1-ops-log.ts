import { maskAuditCredentials } from "../../domain/kernel/audit";
import { maskSensitiveData } from "../../domain/privacy/credentials";

/**
 * A small bounded operations log (migrations/0171_ops_log.sql): unhandled request errors and
 * retention runs, for the overview page. Each write trims its kind to the newest `KEEP` rows
 * in the same batch, so the table stays a few hundred rows whatever the traffic.
 */

export const OPS_KINDS = ["error", "retention"] as const;
export type OpsKind = (typeof OPS_KINDS)[number];
export type OpsEntry = {
  id: number;
  at: number;
  source: string;
  message: string;
  detail: Record<string, unknown>;
};

const KEEP = 200;
const MAX_MESSAGE = 500;

export class D1OpsLog {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async record(
    kind: OpsKind,
    entry: { at: number; source: string; message: string; detail?: Record<string, unknown> },
  ) {
    // An error's text is whatever the failing code put in it (a query string, a command, a
    // message): masked here as audit rows are, so no writer can store a credential through it.
    const safe = maskAuditCredentials({ target: entry.source, detail: entry.detail ?? {} });
    await this.#db.batch([
      this.#db
        .prepare("INSERT INTO ops_log (at, kind, source, message, detail) VALUES (?1, ?2, ?3, ?4, ?5)")
        .bind(
          entry.at,
          kind,
          (safe.target ?? "").slice(0, 200),
          maskSensitiveData(entry.message).slice(0, MAX_MESSAGE),
          JSON.stringify(safe.detail),
        ),
      this.#db
        .prepare(
          "DELETE FROM ops_log WHERE kind = ?1 AND id <= (SELECT id FROM ops_log WHERE kind = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)",
        )
        .bind(kind, KEEP),
    ]);
  }

  async recent(kind: OpsKind, limit: number): Promise<OpsEntry[]> {
    const { results } = await this.#db
      .prepare(
        "SELECT id, at, source, message, detail FROM ops_log WHERE kind = ?1 ORDER BY id DESC LIMIT ?2",
      )
      .bind(kind, limit)
      .all<{ id: number; at: number; source: string; message: string; detail: string }>();
    return results.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
  }
}
