// The chat object's schema steps run once: a wake with a current schema writes nothing, and an
// object left at an older version gets exactly the steps after it.

import { logHomeOf } from "@src/durable-objects/chat-log-home";
import { migrateChatSession } from "@src/durable-objects/chat-session-schema";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../support/chat-object";

const version = (storage: DurableObjectStorage) =>
  storage.sql
    .exec<{ version: number }>("SELECT version FROM _schema")
    .toArray()
    .map((r) => r.version);

const LOG_TABLES = [
  "conversation_backfill",
  "messages_fts",
  "message_windows_fts",
  "message_windows",
  "message_senders",
  "conversation_sessions",
  "messages",
];

describe("migrateChatSession", () => {
  it("writes nothing when the schema is current", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const current = version(storage);
      expect(current).toHaveLength(1);
      const before = storage.sql.databaseSize;
      const changes = storage.sql.exec("SELECT total_changes() AS n").one().n;
      migrateChatSession(storage);
      expect(storage.sql.exec("SELECT total_changes() AS n").one().n).toBe(changes);
      expect(version(storage)).toEqual(current);
      expect(storage.sql.databaseSize).toBe(before);
    });
  });

  it("runs only the steps after the recorded version", async ({ expect }) => {
    await inFreshChatObject((storage) => {
      const [current = 0] = version(storage);
      // As an object from before the last ten steps (the log's tables, its backfill row, its
      // hourly counts, the recent turns' account, whether a reply and a recent turn held words
      // that must stay in the chat, the reply-marking triggers, the request's window on either
      // side, the inbox's wait for a naming, and the windows of a rewritten message): they are
      // gone and the version says so.
      for (const view of ["message_neighbours", "message_window_text"]) storage.sql.exec(`DROP VIEW ${view}`);
      for (const table of [...LOG_TABLES, "log_counts"]) storage.sql.exec(`DROP TABLE ${table}`);
      storage.sql.exec("ALTER TABLE recent_turns DROP COLUMN account");
      storage.sql.exec("ALTER TABLE recent_turns DROP COLUMN held");
      storage.sql.exec("ALTER TABLE replies DROP COLUMN held");
      storage.sql.exec("ALTER TABLE inbox DROP COLUMN held_until");
      storage.sql.exec("DELETE FROM meta");
      storage.sql.exec("UPDATE _schema SET version = ?", current - 10);
      migrateChatSession(storage);
      expect(version(storage)).toEqual([current]);
      const tables = storage.sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (SELECT value FROM json_each(?))",
          JSON.stringify(LOG_TABLES),
        )
        .toArray();
      expect(tables).toHaveLength(LOG_TABLES.length);
      const recentColumns = storage.sql
        .exec<{ name: string }>("SELECT name FROM pragma_table_info('recent_turns')")
        .toArray()
        .map((c) => c.name);
      expect(recentColumns).toContain("account");
      expect(recentColumns).toContain("held");
      const inboxColumns = storage.sql
        .exec<{ name: string }>("SELECT name FROM pragma_table_info('inbox')")
        .toArray();
      expect(inboxColumns.map((c) => c.name)).toContain("held_until");
      const retokened = storage.sql
        .exec("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_retokened_bu'")
        .toArray();
      expect(retokened).toHaveLength(1);
      // Its earlier messages are in D1: its log is read there until the owner's migration.
      expect(logHomeOf(storage.sql)).toBe("d1");
    });
  });
});
