// The D1 API over a chat object's own SQLite (src/adapters/do-sql/sql-storage-database.ts), run in
// workerd against a real object's storage: parameters, result shapes and meta, batch atomicity,
// FTS5 and json_each, errors, what D1 converts, and the log's real D1 adapters running over it.
import { env } from "cloudflare:workers";
import { D1MessageLog } from "@src/adapters/d1/d1-message-log";
import { messageRetrieval } from "@src/adapters/d1/d1-message-retrieval";
import { D1RecentMessages } from "@src/adapters/d1/d1-recent-messages";
import { openDatabase } from "@src/adapters/d1/database";
import { SqlStorageDatabase } from "@src/adapters/do-sql/sql-storage-database";
import { LogHistorySearch } from "@src/domain/history/log-history-search";
import { outboundRecord } from "@src/domain/history/message-record";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../../support/chat-object";

/** Runs `fn` with the shim over a fresh chat object's storage (the object's own schema included). */
const withDb = <T>(fn: (db: D1Database, storage: DurableObjectStorage) => Promise<T>) =>
  inFreshChatObject((storage) => fn(new SqlStorageDatabase(storage), storage));

const count = (storage: DurableObjectStorage, table: string) =>
  storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).one().n;

describe("SqlStorageDatabase parameters", () => {
  it("binds numbered parameters, a number used twice reading one value, and plain ?", async ({ expect }) => {
    await withDb(async (db) => {
      const numbered = await db.prepare("SELECT ?2 AS a, ?1 AS b, ?1 || ?2 AS c").bind("x", "y").first();
      expect(numbered).toEqual({ a: "y", b: "x", c: "xy" });
      expect(await db.prepare("SELECT ? AS a, ? AS b").bind(1, "two").first()).toEqual({ a: 1, b: "two" });
      // A number past the others leaves a gap, bound by position as in D1.
      expect(await db.prepare("SELECT ?1 AS a, ?3 AS c").bind(1, 2, 3).first()).toEqual({ a: 1, c: 3 });
      await expect(db.prepare("SELECT ?1 AS a, ?2 AS b").bind(1).all()).rejects.toThrow(
        "D1_ERROR: Wrong number of parameter bindings for SQL query.",
      );
    });
  });

  it("bind returns a new statement and leaves the first one's values alone", async ({ expect }) => {
    await withDb(async (db) => {
      const stmt = db.prepare("SELECT ?1 AS v");
      const one = stmt.bind(1);
      const two = one.bind(2);
      expect(await one.first("v")).toBe(1);
      expect(await two.first("v")).toBe(2);
    });
  });

  it("converts values as D1 does: booleans to 1/0, bytes to a BLOB read back as bytes, undefined refused", async ({
    expect,
  }) => {
    await withDb(async (db) => {
      expect(await db.prepare("SELECT ?1 AS t, ?2 AS f").bind(true, false).first()).toEqual({ t: 1, f: 0 });
      const blob = await db
        .prepare("SELECT ?1 AS a, ?2 AS b, ?3 AS c, typeof(?1) AS t")
        .bind(new Uint8Array([1, 2, 3]).buffer, new Uint8Array([9, 8, 7, 6]).subarray(1, 3), [4, 5])
        .first();
      expect(blob).toEqual({ a: [1, 2, 3], b: [8, 7], c: [4, 5], t: "blob" });
      expect(await db.prepare("SELECT ?1 AS v").bind(null).first("v")).toBeNull();
      // D1's bind throws at once for these, before anything runs.
      expect(() => db.prepare("SELECT ?1").bind(undefined)).toThrow(
        "D1_TYPE_ERROR: Type 'undefined' not supported for value 'undefined'",
      );
      expect(() => db.prepare("SELECT ?1").bind(5n)).toThrow("D1_TYPE_ERROR: Type 'bigint'");
      expect(() => db.prepare("SELECT ?1").bind({ a: 1 })).toThrow("D1_TYPE_ERROR: Type 'object'");
    });
  });
});

describe("SqlStorageDatabase results", () => {
  const setUp = (db: D1Database) => db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)");

  it("run reports the write in meta as D1 does", async ({ expect }) => {
    await withDb(async (db) => {
      await setUp(db);
      const first = await db.prepare("INSERT INTO t (name, n) VALUES (?1, ?2)").bind("a", 1).run();
      expect(first.success).toBe(true);
      expect(first.results).toEqual([]);
      expect(first.meta).toMatchObject({ changes: 1, last_row_id: 1, changed_db: true, rows_written: 1 });
      expect(typeof first.meta.duration).toBe("number");
      expect(first.meta.size_after).toBeGreaterThan(0);
      const second = await db.prepare("INSERT INTO t (name, n) VALUES ('b', 2), ('c', 3)").run();
      expect(second.meta).toMatchObject({ changes: 2, last_row_id: 3, rows_written: 2 });
      const update = await db.prepare("UPDATE t SET n = n + 10 WHERE n >= ?1 RETURNING id").bind(2).run();
      expect(update.results).toEqual([{ id: 2 }, { id: 3 }]);
      expect(update.meta.changes).toBe(2);
    });
  });

  it("all, first and raw give D1's shapes, and a read changes nothing in meta", async ({ expect }) => {
    await withDb(async (db) => {
      await setUp(db);
      await db.prepare("INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2), ('c', 3)").run();
      const all = await db.prepare("SELECT id, name FROM t WHERE n >= ?1 ORDER BY id").bind(2).all();
      expect(all).toMatchObject({
        success: true,
        results: [
          { id: 2, name: "b" },
          { id: 3, name: "c" },
        ],
      });
      expect(all.meta).toMatchObject({ changes: 0, changed_db: false, rows_written: 0, last_row_id: 3 });
      expect(all.meta.rows_read).toBeGreaterThanOrEqual(3);
      expect(await db.prepare("SELECT name FROM t ORDER BY id").first()).toEqual({ name: "a" });
      expect(await db.prepare("SELECT name FROM t ORDER BY id DESC").first("name")).toBe("c");
      expect(await db.prepare("SELECT name FROM t WHERE 0").first()).toBeNull();
      expect(await db.prepare("SELECT name FROM t WHERE 0").first("name")).toBeNull();
      await expect(db.prepare("SELECT name FROM t").first("nope")).rejects.toThrow(
        "D1_COLUMN_NOTFOUND: Column not found (nope)",
      );
      const raw = await db.prepare("SELECT id, name, id FROM t WHERE id < 3 ORDER BY id").raw();
      expect(raw).toEqual([
        [1, "a", 1],
        [2, "b", 2],
      ]);
      const named = await db.prepare("SELECT id, name FROM t WHERE id = 1").raw({ columnNames: true });
      expect(named).toEqual([
        ["id", "name"],
        [1, "a"],
      ]);
      expect(await db.prepare("SELECT id FROM t WHERE 0").raw({ columnNames: true })).toEqual([["id"]]);
    });
  });

  it("gives the same results and errors as local D1 for the same statements", async ({ expect }) => {
    const table = `zz_parity_${crypto.randomUUID().replaceAll("-", "")}`;
    // Thunks, run one at a time in order: each case sees the writes of the ones before it.
    const cases = (db: D1Database): (() => Promise<unknown>)[] => [
      () => db.prepare(`INSERT INTO ${table} (a, b) VALUES (?1, ?1), (?2, ?3)`).bind("x", true, 2.5).run(),
      () => db.prepare(`SELECT * FROM ${table} ORDER BY id`).all(),
      () => db.prepare(`SELECT a, b, a FROM ${table} ORDER BY id`).raw({ columnNames: true }),
      () => db.prepare("SELECT 1 AS a, 2 AS a").all(),
      () => db.prepare(`SELECT count(*) AS n FROM ${table}`).first("n"),
      () => db.prepare("SELECT * FROM nope").all(),
      () => db.prepare("SELEC 1").all(),
      () => db.prepare(`INSERT INTO ${table} (id) VALUES (1)`).run(),
      () => db.prepare("").all(),
      () => db.batch([]),
    ];
    const outcomes = async (db: D1Database) => {
      await db.exec(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, a, b)`);
      const out: unknown[] = [];
      for (const run of cases(db)) {
        out.push(
          await run().then(
            (r) => (r && typeof r === "object" && "results" in r ? (r as D1Result).results : r),
            (e: Error) => `error: ${e.message}`,
          ),
        );
      }
      return out;
    };
    const overD1 = await outcomes(env.DB);
    await env.DB.exec(`DROP TABLE ${table}`);
    const overObject = await withDb((db) => outcomes(db));
    expect(overObject).toEqual(overD1);
  });
});

describe("SqlStorageDatabase batch and exec", () => {
  it("runs a batch in order and returns each statement's result", async ({ expect }) => {
    await withDb(async (db) => {
      await db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
      const [insert, select] = await db.batch<{ n: number }>([
        db.prepare("INSERT INTO t (name) VALUES (?1), (?1)").bind("a"),
        db.prepare("SELECT count(*) AS n FROM t WHERE name = ?").bind("a"),
      ]);
      expect(insert?.meta.changes).toBe(2);
      expect(select?.results).toEqual([{ n: 2 }]);
    });
  });

  it("applies nothing of a batch whose second statement fails", async ({ expect }) => {
    await withDb(async (db, storage) => {
      await db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
      const failing = db.batch([
        db.prepare("INSERT INTO t (name) VALUES (?1)").bind("kept?"),
        db.prepare("INSERT INTO t (name) VALUES (?1)").bind(null),
      ]);
      await expect(failing).rejects.toThrow("D1_ERROR: NOT NULL constraint failed: t.name");
      expect(count(storage, "t")).toBe(0);
      await expect(
        db.batch([db.prepare("INSERT INTO t (name) VALUES ('x')"), db.prepare("SELECT * FROM nope")]),
      ).rejects.toThrow("D1_ERROR: no such table: nope");
      expect(count(storage, "t")).toBe(0);
    });
  });

  it("refuses a statement prepared on another database in a batch", async ({ expect }) => {
    await withDb(async (db, storage) => {
      const other = new SqlStorageDatabase({
        sql: storage.sql,
        transactionSync: (f) => storage.transactionSync(f),
      });
      await expect(db.batch([other.prepare("SELECT 1")])).rejects.toThrow("same database");
      await expect(db.batch([env.DB.prepare("SELECT 1")])).rejects.toThrow("same database");
    });
  });

  it("exec runs several statements at once, and none of them when one fails", async ({ expect }) => {
    await withDb(async (db, storage) => {
      const done = await db.exec(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);\nINSERT INTO t (name) VALUES ('a'); INSERT INTO t (name) VALUES ('b');",
      );
      expect(done.count).toBe(2);
      expect(count(storage, "t")).toBe(2);
      await expect(db.exec("INSERT INTO t (name) VALUES ('c');\nSELECT * FROM nope;")).rejects.toThrow(
        "D1_EXEC_ERROR: no such table: nope",
      );
      expect(count(storage, "t")).toBe(2);
    });
  });
});

describe("SqlStorageDatabase SQL features and errors", () => {
  it("keeps an external-content FTS5 table by triggers and ranks matches with bm25", async ({ expect }) => {
    await withDb(async (db) => {
      await db.exec(`CREATE TABLE docs (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
        CREATE VIRTUAL TABLE docs_fts USING fts5(body, content='docs', content_rowid='id');
        CREATE TRIGGER docs_ai AFTER INSERT ON docs BEGIN
          INSERT INTO docs_fts (rowid, body) VALUES (new.id, new.body);
        END;
        CREATE TRIGGER docs_ad AFTER DELETE ON docs BEGIN
          INSERT INTO docs_fts (docs_fts, rowid, body) VALUES ('delete', old.id, old.body);
        END;`);
      const insert = db.prepare("INSERT INTO docs (body) VALUES (?1)");
      const written = await db.batch([
        insert.bind("apple banana"),
        insert.bind("apple apple apple cherry"),
        insert.bind("banana cherry"),
      ]);
      // The FTS rows the trigger wrote are counted in changes, as D1 counts them.
      expect(written[0]?.meta.changes).toBeGreaterThan(1);
      const search = db.prepare(
        `SELECT d.id, bm25(docs_fts) AS score FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid
         WHERE docs_fts MATCH ?1 ORDER BY bm25(docs_fts) LIMIT ?2`,
      );
      const { results } = await search.bind("apple", 10).all<{ id: number; score: number }>();
      expect(results.map((r) => r.id)).toEqual([2, 1]);
      expect(results.every((r) => typeof r.score === "number" && r.score < 0)).toBe(true);
      await db.prepare("DELETE FROM docs WHERE id = ?1").bind(2).run();
      expect((await search.bind("apple", 10).all()).results.map((r) => r.id)).toEqual([1]);
      expect((await search.bind("cherry", 10).all()).results.map((r) => r.id)).toEqual([3]);
    });
  });

  it("reads a bound JSON string through json_each", async ({ expect }) => {
    await withDb(async (db) => {
      const names = await db
        .prepare("SELECT value FROM json_each(?1) WHERE value <> ?2 ORDER BY key")
        .bind(JSON.stringify(["小明", "小红", "x"]), "x")
        .raw();
      expect(names).toEqual([["小明"], ["小红"]]);
      const none = await db
        .prepare("SELECT ?1 IS NULL AS n, (SELECT count(*) FROM json_each(?1)) AS c")
        .bind(null);
      expect(await none.first()).toEqual({ n: 1, c: 0 });
    });
  });

  it("rejects the promise with SQLite's message instead of throwing at the call", async ({ expect }) => {
    await withDb(async (db) => {
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = db.prepare("SELECT * FROM nope").all();
      }).not.toThrow();
      const error = await (pending as Promise<unknown>).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe("D1_ERROR: no such table: nope: SQLITE_ERROR");
      expect(((error as Error).cause as Error).message).toBe("no such table: nope: SQLITE_ERROR");
      await expect(db.prepare("SELECT * FROM nope").first()).rejects.toThrow("D1_ERROR: no such table");
      await expect(db.prepare("SELECT * FROM nope").run()).rejects.toThrow("D1_ERROR: no such table");
      await expect(db.prepare("SELECT * FROM nope").raw()).rejects.toThrow("D1_ERROR: no such table");
      // The object's SQLite refuses SQL transactions (transactionSync is the way), and says so.
      await expect(db.prepare("BEGIN").run()).rejects.toThrow("D1_ERROR: To execute a transaction");
    });
  });

  it("refuses sessions and dump", async ({ expect }) => {
    await withDb(async (db) => {
      expect(() => db.withSession("first-primary")).toThrow("not supported");
      await expect(db.dump()).rejects.toThrow("not supported");
    });
  });
});

describe("the log's D1 adapters over the object's own log", () => {
  // The object's log has D1's tables, FTS and triggers (chat-log-schema.ts). Rows go in through
  // the D1 writer (drizzle, one batch) and come out through the D1 readers, none of them changed.
  const chat = "qq:group:G1";
  const other = "qq:group:G2";
  const said = (
    chatKey: string,
    id: string,
    ts: number,
    nick: string,
    text: string,
    privateMarked: 0 | 1 = 0,
  ) => ({
    ...outboundRecord({ transport: "qq", chatKey, messageId: id, ts, text, botName: nick }),
    direction: "in" as const,
    privateMarked,
  });
  const log = [
    said(chat, "m1", 1000, "小明", "明天下午三点开会"),
    said(chat, "m2", 2000, "小红", "好的"),
    said(chat, "m3", 3000, "小明", "撤回的话"),
    said(chat, "m4", 4000, "小明", "只在这里说", 1),
    outboundRecord({
      transport: "qq",
      chatKey: chat,
      messageId: "m5",
      ts: 5000,
      text: "收到",
      botName: "Akasha",
    }),
    said(other, "n1", 6000, "小刚", "别的群"),
  ];
  const write = (db: D1Database) =>
    new D1MessageLog(openDatabase(db)).flush({
      messages: log,
      recalls: [{ transport: "qq", chatKey: chat, messageId: "m3" }],
      chats: [],
      usage: [],
      audit: [],
    });

  it("D1RecentMessages lists the newest messages through its filters and the read gate, and the senders", async ({
    expect,
  }) => {
    await withDb(async (db, storage) => {
      await write(db);
      expect(count(storage, "messages")).toBe(6);
      const recent = new D1RecentMessages(db);
      const ids = async (q: Partial<Parameters<D1RecentMessages["recent"]>[0]>) =>
        (await recent.recent({ chatKey: chat, limit: 10, reader: chat, ...q })).map((h) => h.messageId);
      // m3 was recalled by the same flush (a drizzle update binding `true`).
      expect(await ids({})).toEqual(["m5", "m4", "m2", "m1"]);
      const [newest] = await recent.recent({ chatKey: chat, limit: 1, reader: chat });
      expect(newest).toMatchObject({
        chatKey: chat,
        messageId: "m5",
        ts: 5000,
        nick: "Akasha",
        text: "收到",
      });
      expect(newest).toMatchObject({ direction: "out", rank: null });
      expect(await ids({ senders: ["小明"] })).toEqual(["m4", "m1"]);
      expect(await ids({ since: 2000, until: 5000 })).toEqual(["m4", "m2"]);
      expect(await ids({ limit: 2 })).toEqual(["m5", "m4"]);
      // Another chat reading this log never sees what was marked private here.
      expect(await ids({ reader: other })).toEqual(["m5", "m2", "m1"]);
      expect(await recent.senders([chat, other])).toEqual([
        { chatKey: other, nick: "小刚" },
        { chatKey: chat, nick: "Akasha" },
        { chatKey: chat, nick: "小明" },
        { chatKey: chat, nick: "小红" },
      ]);
      expect(await recent.senders([])).toEqual([]);
    });
  });

  it("a rewritten flush adds nothing, and history search finds a two-character word in the turn windows", async ({
    expect,
  }) => {
    await withDb(async (db, storage) => {
      await write(db);
      await write(db);
      expect(count(storage, "messages")).toBe(6);
      const search = (flat: boolean) =>
        new LogHistorySearch({
          indexes: (view) => messageRetrieval(db, { ...view, flat }),
          recent: new D1RecentMessages(db),
        }).search({ chatKey: chat, reader: chat, text: "开会", limit: 5 });
      // Each message alone (messages_fts), over the object's log schema as it is; the turns
      // around the match come with it as context.
      const flat = await search(true);
      expect(flat[0]?.messageId).toBe("m1");
      expect(flat.every((h) => h.chatKey === chat && h.messageId !== "m3")).toBe(true);
      // The turn windows (message_windows_fts), the production path.
      const windowed = await search(false);
      expect(windowed.map((h) => h.messageId)).toContain("m1");
      expect(windowed.every((h) => h.chatKey === chat && h.messageId !== "m3")).toBe(true);
    });
  });
});
