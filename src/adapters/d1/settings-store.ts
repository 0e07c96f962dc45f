/** The D1 layer of the behaviour settings: one JSON document under key `config`. */
import { eq } from "drizzle-orm";
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

  /** Saves an already validated override document. */
  async write(value: string, by: string | null, at: number): Promise<void> {
    await this.#db
      .insert(settings)
      .values({ key: SETTINGS_KEY, value, updatedAt: at, updatedBy: by })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: at, updatedBy: by } });
  }
}
