// The chat object's schema steps run once: a wake with a current schema writes nothing, and an
// object left at an older version gets exactly the steps after it.
import { describe, it } from "vitest";
import { migrateChatSession } from "../../src/durable-objects/chat-session-schema";
import { inFreshChatObject } from "../support/chat-object";

const version = (storage: DurableObjectStorage) =>
  storage.sql
    .exec<{ version: number }>("SELECT version FROM _schema")
    .toArray()
    .map((r) => r.version);

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
      // As an object from before the last step: the step's column is gone and the version says so.
      storage.sql.exec("ALTER TABLE reminders DROP COLUMN kind");
      storage.sql.exec("UPDATE _schema SET version = ?", current - 1);
      migrateChatSession(storage);
      expect(version(storage)).toEqual([current]);
      const column = storage.sql
        .exec<{ name: string }>("SELECT name FROM pragma_table_info('reminders') WHERE name = 'kind'")
        .toArray();
      expect(column).toHaveLength(1);
    });
  });
});
