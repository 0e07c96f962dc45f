// The rows a probe counts in a chat object's SQLite: every cursor opened while it watches, and
// none after it stops, the storage's own exec given back.

import { sqlCursors } from "@src/composition/dev/sql-cursors";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../../support/chat-object";

describe("sql cursors of a probe", () => {
  it("sums the rows read and written while watching, and leaves exec as it was when stopped", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const { sql } = storage;
      const exec = sql.exec;
      sql.exec("CREATE TABLE t (x INTEGER)");
      const cursors = sqlCursors(sql);
      sql.exec("INSERT INTO t VALUES (?), (?)", 1, 2);
      expect(sql.exec<{ n: number }>("SELECT sum(x) AS n FROM t").one().n).toBe(3);
      expect(cursors.rowsWritten()).toBeGreaterThanOrEqual(2);
      const read = cursors.rowsRead();
      expect(read).toBeGreaterThanOrEqual(2);
      cursors.stop();
      expect(sql.exec).toBe(exec);
      sql.exec("SELECT * FROM t").toArray();
      expect(cursors.rowsRead()).toBe(read);
    });
  });
});
