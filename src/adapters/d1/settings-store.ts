/** The D1 layer of the behaviour settings: one JSON document under key `config`. */
import { eq } from "drizzle-orm";
import type { AuditRecord } from "../../domain/history/message-log";
import { auditLogRow } from "./d1-audit-log";
import type { Database } from "./database";
import { settings } from "./schema";

export const SETTINGS_KEY = "config";

export class D1SettingsStore {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** The stored override document as text, or null when none was saved. */
  async read(): Promise<string | null> {
    const rows = await this.#db.select().from(settings).where(eq(settings.key, SETTINGS_KEY)).limit(1);
    return rows[0]?.value ?? null;
  }

  /**
   * Saves `value` only while the stored text is still `expected` (null = no row yet): a
   * compare-and-set, so that two admins editing at once cannot silently undo each other.
   * The audit row goes in the same batch (one transaction) and is inserted only when the
   * write changed the row (`changes()` of the statement before it): both or neither. True
   * when it was saved.
   */
  async save(value: string, expected: string | null, audit: AuditRecord): Promise<boolean> {
    const d1 = this.#db.$client;
    const write =
      expected === null
        ? d1
            .prepare(
              `INSERT INTO settings (key, value, updated_at, updated_by) VALUES (?1, ?2, ?3, ?4)
               ON CONFLICT (key) DO NOTHING`,
            )
            .bind(SETTINGS_KEY, value, audit.at, audit.actor)
        : d1
            .prepare(
              "UPDATE settings SET value = ?2, updated_at = ?3, updated_by = ?4 WHERE key = ?1 AND value = ?5",
            )
            .bind(SETTINGS_KEY, value, audit.at, audit.actor, expected);
    const row = auditLogRow(audit);
    const audited = d1
      .prepare(
        `INSERT INTO audit_log (dedupe_key, at, actor, action, chat_key, target, detail)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE changes() > 0`,
      )
      .bind(row.dedupeKey, row.at, row.actor, row.action, row.chatKey, row.target, row.detail);
    const [written] = await d1.batch([write, audited]);
    return (written?.meta.changes ?? 0) > 0;
  }
}
