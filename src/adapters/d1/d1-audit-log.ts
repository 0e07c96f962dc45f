/**
 * The audit log in D1: the one row every writer stores (`auditLogRow`), and the admin API's
 * reads, newest first, filtered in SQL.
 */
import type { AuditRecord } from "../../domain/history/message-log";
import { maskAuditCredentials } from "../../domain/kernel/audit";

/** The audit_log columns of a record as every writer stores them: credentials masked, detail as JSON. */
export function auditLogRow(record: AuditRecord) {
  const safe = maskAuditCredentials(record);
  return {
    dedupeKey: safe.dedupeKey,
    at: safe.at,
    actor: safe.actor,
    action: safe.action,
    chatKey: safe.chatKey,
    target: safe.target,
    detail: JSON.stringify(safe.detail),
  };
}

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
  async record(entry: {
    at: number;
    actor: string;
    action: string;
    chatKey: string | null;
    target: string;
    detail: Record<string, unknown>;
  }) {
    await insertAuditRow(this.#db, {
      ...entry,
      dedupeKey: `${entry.action}:${entry.at}:${crypto.randomUUID()}`,
    }).run();
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

/**
 * The INSERT of one record, for writers that batch it with their own statements (a memory
 * edit, an owner plan): the row goes through `auditLogRow` like every other.
 */
export function insertAuditRow(db: D1Database, record: AuditRecord): D1PreparedStatement {
  const row = auditLogRow(record);
  return db
    .prepare(
      "INSERT INTO audit_log (dedupe_key, at, actor, action, chat_key, target, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )
    .bind(row.dedupeKey, row.at, row.actor, row.action, row.chatKey, row.target, row.detail);
}

/** Who acts in an admin's change, when, and through which door (`api` unless said). */
export type AdminAct = { readonly actor: string; readonly at: number; readonly via?: string };

/** The record of one admin's change to `target`, in the change's own batch. */
export function adminActRow(
  db: D1Database,
  act: AdminAct,
  change: { action: string; target: string; chatKey: string | null; detail?: Record<string, unknown> },
): D1PreparedStatement {
  return insertAuditRow(db, {
    dedupeKey: `${change.action}:${change.target}:${act.at}:${crypto.randomUUID()}`,
    at: act.at,
    actor: act.actor,
    action: change.action,
    chatKey: change.chatKey,
    target: change.target,
    detail: { via: act.via ?? "api", ...change.detail },
  });
}

/**
 * The same INSERT, kept only when the statement just before it in the batch changed a row
 * (`changes()`): a write and its record are one batch, and a write that changed nothing —
 * a duplicate, a row the storage-off trigger dropped, a guard that no longer held — leaves no
 * record claiming it happened.
 */
export function insertAuditRowIfChanged(db: D1Database, record: AuditRecord): D1PreparedStatement {
  const row = auditLogRow(record);
  return db
    .prepare(
      "INSERT INTO audit_log (dedupe_key, at, actor, action, chat_key, target, detail) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE changes() > 0",
    )
    .bind(row.dedupeKey, row.at, row.actor, row.action, row.chatKey, row.target, row.detail);
}

function parseDetail(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
