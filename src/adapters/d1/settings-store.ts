/** The D1 layer of the behaviour settings: one JSON document under key `config`. */
import { and, eq } from "drizzle-orm";
import type { AuditRecord } from "../../domain/history/message-log";
import { auditLogRow } from "./d1-audit-log";
import type { Database } from "./database";
import { auditLog, settings } from "./schema";

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
   * True when it was saved.
   */
  async writeIfUnchanged(
    value: string,
    expected: string | null,
    by: string | null,
    at: number,
  ): Promise<boolean> {
    const write =
      expected === null
        ? this.#db
            .insert(settings)
            .values({ key: SETTINGS_KEY, value, updatedAt: at, updatedBy: by })
            .onConflictDoNothing()
        : this.#db
            .update(settings)
            .set({ value, updatedAt: at, updatedBy: by })
            .where(and(eq(settings.key, SETTINGS_KEY), eq(settings.value, expected)));
    const result = await write.run();
    return (result.meta.changes ?? 0) > 0;
  }

  /**
   * Saves an already validated override document. With `audit`, the audit row is written in
   * the same batch (one transaction): both or neither.
   */
  async write(value: string, by: string | null, at: number, audit?: AuditRecord): Promise<void> {
    const upsert = this.#db
      .insert(settings)
      .values({ key: SETTINGS_KEY, value, updatedAt: at, updatedBy: by })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: at, updatedBy: by } });
    if (!audit) {
      await upsert;
      return;
    }
    await this.#db.batch([
      upsert,
      this.#db.insert(auditLog).values(auditLogRow(audit)).onConflictDoNothing(),
    ]);
  }
}
