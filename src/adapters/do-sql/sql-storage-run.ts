/**
 * Runs D1-style statements on a Durable Object's SQLite and reports each as D1 does: the rows
 * with their column names, and the `meta` D1 adapters and the bill read (rows read and
 * written, changes, last row id). The meta is taken the way local D1 takes it (it runs on the
 * same SQLite): `changes` is the growth of total_changes(), so, like D1's, it counts the rows
 * triggers wrote too.
 */
import { toD1Value } from "./sql-storage-values";

/** What the shim needs of the object's storage (the whole DurableObjectStorage fits). */
export type SqlStorageHost = Pick<DurableObjectStorage, "sql" | "transactionSync">;

/** One statement to run: its SQL and its bound values, already converted for the object. */
export type SqlQuery = { readonly sql: string; readonly params: readonly SqlStorageValue[] };

export type SqlOutcome = {
  columns: string[];
  rows: unknown[][];
  meta: D1Meta & Record<string, unknown>;
};

/** The text D1 gives for empty SQL; an empty batch gets it too, as in D1. */
const NO_STATEMENTS = "No SQL statements detected.";

// A SQL text of only blanks and `--` comment lines is empty for D1, which refuses it before SQLite.
const isEmpty = (sql: string): boolean => sql.replace(/^\s*--.*$/gm, "").trim() === "";

function counters(sql: SqlStorage): { total: number; lastRowId: number } {
  return sql
    .exec<{ total: number; lastRowId: number }>(
      "SELECT total_changes() AS total, last_insert_rowid() AS lastRowId",
    )
    .one();
}

/**
 * Runs one statement and consumes its cursor fully: a cursor read after an await would see a
 * database that other code of the object may have changed meanwhile.
 */
function runOne(sql: SqlStorage, query: SqlQuery): SqlOutcome {
  if (isEmpty(query.sql)) throw new Error(NO_STATEMENTS);
  const sizeBefore = sql.databaseSize;
  const before = counters(sql);
  const started = performance.now();
  const cursor = sql.exec(query.sql, ...query.params);
  const rows = Array.from(cursor.raw(), (row) => row.map(toD1Value));
  // The runtime's clock stands still during synchronous work, so this is 0 unless I/O moved it.
  const duration = performance.now() - started;
  const after = counters(sql);
  const changes = after.total - before.total;
  const sizeAfter = sql.databaseSize;
  return {
    columns: cursor.columnNames,
    rows,
    meta: {
      served_by_primary: true,
      total_attempts: 1,
      timings: { sql_duration_ms: duration },
      duration,
      changes,
      last_row_id: after.lastRowId,
      changed_db: changes !== 0 || after.lastRowId !== before.lastRowId || sizeAfter !== sizeBefore,
      size_after: sizeAfter,
      rows_read: cursor.rowsRead,
      rows_written: cursor.rowsWritten,
    },
  };
}

/** The rows as D1 gives them: one object per row, a repeated column name keeping its last value. */
export function toD1Result<T>(outcome: SqlOutcome): D1Result<T> {
  const results = outcome.rows.map((row) => Object.fromEntries(outcome.columns.map((c, i) => [c, row[i]])));
  // D1's API is untyped at run time: the caller names the row type, as over D1 itself.
  return { success: true, meta: outcome.meta, results: results as T[] };
}

/** An error of the object's SQLite as D1 words it: `D1_ERROR: <SQLite's message>`, the bare message as cause. */
export function d1Error(error: unknown, prefix = "D1_ERROR"): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${prefix}: ${message}`, { cause: new Error(message) });
}

/**
 * Runs the statements in order inside one transaction: all apply or none does, as in a D1
 * batch (local D1 runs a lone statement in a transaction too, which matters only for a text
 * of several statements). Throws the D1-worded error of the first statement that fails.
 */
export function runInTransaction(host: SqlStorageHost, queries: readonly SqlQuery[]): SqlOutcome[] {
  try {
    if (queries.length === 0) throw new Error(NO_STATEMENTS);
    return host.transactionSync(() => queries.map((q) => runOne(host.sql, q)));
  } catch (error) {
    throw d1Error(error);
  }
}
