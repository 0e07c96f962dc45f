// The chat object's log has D1's message-log schema (docs/storage.md#messages): the log's SQL
// readers run over either unchanged, and the owner's migration copies D1's rows column for
// column. Both schemas are read back from the databases themselves — D1 with every migration
// applied, a fresh chat object with every step — so a column, index or trigger added to one
// side only fails here.
import { env } from "cloudflare:workers";
import { CHAT_LOG_SCHEMA } from "@src/durable-objects/chat-log-schema";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../support/chat-object";

type Entry = { type: string; name: string; tbl_name: string; sql: string | null };
type Column = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number };

/** One side's schema, read by SQL: D1 through its binding, the object through its storage. */
type Reader = <T>(sql: string) => Promise<T[]>;

/** The log's tables, virtual tables and views: those the object's log schema creates. */
const LOG_TABLES = [...CHAT_LOG_SCHEMA.matchAll(/CREATE (?:VIRTUAL TABLE|TABLE|VIEW) (\w+)/g)].map(
  (m) => m[1] ?? "",
);
const FTS_TABLES = [...CHAT_LOG_SCHEMA.matchAll(/CREATE VIRTUAL TABLE (\w+) USING fts5/g)].map(
  (m) => m[1] ?? "",
);

/**
 * What only one side has, on purpose. In D1: the store-off (0100) and do-not-record (0310)
 * triggers, which read D1's settings and sessions (the object applies both rules in code,
 * local-log.ts); D1's counting triggers (0450), where the object counts into its own
 * `log_counts` (chat-log-counts-schema.ts); and the index the migration pages D1's rows by (0440).
 * In the object: its counting triggers, which write `log_counts`, a table of the object only.
 */
const D1_ONLY = [
  "messages_store_off",
  "messages_do_not_record",
  "chat_log_counts_ai",
  "chat_log_counts_ad",
  "messages_chat_seq",
];
const OBJECT_ONLY = ["log_counts_ai", "log_counts_ad"];

/** An FTS5 table's shadow tables (`messages_fts_data`, …) belong to the log as well. */
const ofLog = (e: Entry) =>
  LOG_TABLES.includes(e.tbl_name) || FTS_TABLES.some((fts) => e.tbl_name.startsWith(`${fts}_`));

/** SQL as written: comments and layout are not schema. */
const normalized = (sql: string | null) =>
  (sql ?? "")
    .replace(/--[^\n]*/g, "")
    .replace(/\s+/g, " ")
    .trim();

async function schemaOf(read: Reader, leftOut: readonly string[]) {
  const entries = (await read<Entry>("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"))
    .filter((e) => ofLog(e) && !leftOut.includes(e.name))
    .map((e) => ({ type: e.type, name: e.name, on: e.tbl_name, sql: normalized(e.sql) }));
  const tables = entries.filter((e) => e.type === "table" || e.type === "view");
  const columns: Record<string, Column[]> = {};
  for (const t of tables)
    columns[t.name] = (await read<Column>(`PRAGMA table_info(${t.name})`)).map(
      ({ name, type, notnull, dflt_value, pk }) => ({ name, type, notnull, dflt_value, pk }),
    );
  // The FTS5 tables' settings (automerge, crisismerge) live in their config shadow tables.
  const ftsConfig: Record<string, unknown[]> = {};
  for (const fts of FTS_TABLES) ftsConfig[fts] = await read(`SELECT k, v FROM ${fts}_config ORDER BY k`);
  return { entries, columns, ftsConfig };
}

const d1Reader: Reader = async <T>(sql: string) => (await env.DB.prepare(sql).all<T>()).results;

const objectSchema = () =>
  inFreshChatObject((storage) => {
    const read: Reader = async <T>(sql: string) => storage.sql.exec(sql).toArray() as T[];
    return schemaOf(read, OBJECT_ONLY);
  });

describe("the chat object's log schema", () => {
  it("has D1's log tables, columns, full-text tables, views, indexes and triggers, but for the named exceptions", async ({
    expect,
  }) => {
    const d1 = await schemaOf(d1Reader, D1_ONLY);
    const object = await objectSchema();
    expect(LOG_TABLES).toEqual(expect.arrayContaining(["messages", "messages_fts", "message_windows_fts"]));
    expect(Object.keys(object.columns)).toEqual(expect.arrayContaining(LOG_TABLES));
    expect(object.columns).toEqual(d1.columns);
    expect(object.ftsConfig).toEqual(d1.ftsConfig);
    expect(object.entries).toEqual(d1.entries);
  });

  it("leaves out only what exists: each named exception is in its own side's schema", async ({ expect }) => {
    const names = (rows: { name: string }[]) => rows.map((r) => r.name);
    const d1 = names(await d1Reader<{ name: string }>("SELECT name FROM sqlite_master"));
    const object = await inFreshChatObject((storage) =>
      names(storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master").toArray()),
    );
    expect(d1).toEqual(expect.arrayContaining(D1_ONLY));
    expect(object).toEqual(expect.arrayContaining(OBJECT_ONLY));
    for (const name of D1_ONLY) expect(object).not.toContain(name);
    for (const name of OBJECT_ONLY) expect(d1).not.toContain(name);
  });
});
