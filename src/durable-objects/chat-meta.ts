/** Small per-chat values in the object's `meta` table (JSON text by key). */
export class ChatMeta {
  readonly #sql: SqlStorage;
  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  get<T>(key: string): T | null {
    const row = this.#sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    if (!row) return null;
    try {
      return JSON.parse(row.value) as T;
    } catch {
      return null;
    }
  }

  set(key: string, value: unknown): void {
    this.#sql.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      key,
      JSON.stringify(value),
    );
  }

  delete(key: string): void {
    this.#sql.exec("DELETE FROM meta WHERE key = ?", key);
  }
}
