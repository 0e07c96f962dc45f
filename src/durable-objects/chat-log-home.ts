/**
 * Where this chat's message log is read from. `object`: the object's own SQLite holds the whole
 * log (a chat first seen after the log moved into the objects, or one whose D1 rows were copied
 * here and verified). `d1`: the object was created before the move, so its earlier messages are
 * still only in D1; reads of the chat go to D1 (which every write still reaches) until the
 * owner's migration copies them. Exactly one home at a time, so a read sees each message once.
 */
export type LogHome = "object" | "d1";

const KEY = "log_home";

export function markLogHome(sql: SqlStorage, home: LogHome): void {
  sql.exec(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    KEY,
    JSON.stringify(home),
  );
}

/** An unknown or missing value reads as `d1`: D1 holds every message while the log moves. */
export function logHomeOf(sql: SqlStorage): LogHome {
  const row = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", KEY).toArray()[0];
  return row?.value === JSON.stringify("object") ? "object" : "d1";
}
