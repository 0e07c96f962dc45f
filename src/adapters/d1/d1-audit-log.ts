/** Reads the audit log for the admin API, newest first, filtered in SQL. */

export type AuditFilter = {
  readonly actor?: string;
  /** An exact action (`config.replace`) or a family by its prefix (`memory.`). */
  readonly action?: string;
  readonly chat?: string;
  readonly since?: number;
  readonly until?: number;
  readonly limit: number;
  /** Rows with an id below this one: the next page. */
  readonly before?: number;
};

export type AuditRow = {
  id: number;
  at: number;
  actor: string | null;
  action: string;
  chatKey: string | null;
  target: string | null;
  detail: Record<string, unknown>;
};

export class D1AuditLog {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  /** Appends one row. */
  async record(row: {
    at: number;
    actor: string;
    action: string;
    chatKey: string | null;
    target: string;
    detail: Record<string, unknown>;
  }) {
    await this.#db
      .prepare(
        "INSERT INTO audit_log (dedupe_key, at, actor, action, chat_key, target, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
      )
      .bind(
        `${row.action}:${row.at}:${crypto.randomUUID()}`,
        row.at,
        row.actor,
        row.action,
        row.chatKey,
        row.target,
        JSON.stringify(row.detail),
      )
      .run();
  }

  async list(f: AuditFilter): Promise<AuditRow[]> {
    const where: string[] = ["1"];
    const binds: (string | number)[] = [];
    const bind = (value: string | number) => {
      binds.push(value);
      return `?${binds.length}`;
    };
    if (f.actor) where.push(`actor = ${bind(f.actor)}`);
    if (f.action)
      where.push(
        f.action.endsWith(".")
          ? `substr(action, 1, length(${bind(f.action)})) = ?${binds.length}`
          : `action = ${bind(f.action)}`,
      );
    if (f.chat) where.push(`chat_key = ${bind(f.chat)}`);
    if (f.since !== undefined) where.push(`at >= ${bind(f.since)}`);
    if (f.until !== undefined) where.push(`at < ${bind(f.until)}`);
    if (f.before !== undefined) where.push(`id < ${bind(f.before)}`);
    const { results } = await this.#db
      .prepare(
        `SELECT id, at, actor, action, chat_key AS chatKey, target, detail FROM audit_log
         WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT ${bind(f.limit)}`,
      )
      .bind(...binds)
      .all<Omit<AuditRow, "detail"> & { detail: string }>();
    return results.map((r) => ({ ...r, detail: parseDetail(r.detail) }));
  }
}

function parseDetail(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
