/**
 * A D1 prepared statement over a Durable Object's SQLite (see sql-storage-database.ts). Numbered
 * (`?1`, `?1` again, `?NNN`) and plain `?` parameters are passed to the object's SQLite as they
 * are: it binds them by position as D1 does, a number used twice reading one value.
 *
 * The SQL runs when `all`, `run`, `first` or `raw` is called, before their promise settles;
 * the promise carries the result or D1's error, never a synchronous throw, as with D1.
 */
import {
  runInTransaction,
  type SqlOutcome,
  type SqlQuery,
  type SqlStorageHost,
  toD1Result,
} from "./sql-storage-run";
import { toSqlStorageValue } from "./sql-storage-values";

export class SqlStoragePreparedStatement implements D1PreparedStatement {
  readonly #host: SqlStorageHost;
  readonly #query: SqlQuery;

  constructor(host: SqlStorageHost, sql: string, params: readonly SqlStorageValue[] = []) {
    this.#host = host;
    this.#query = { sql, params };
  }

  /** A new statement with these values (the old one keeps its own), converted or refused as D1 does. */
  bind(...values: unknown[]): SqlStoragePreparedStatement {
    return new SqlStoragePreparedStatement(this.#host, this.#query.sql, values.map(toSqlStorageValue));
  }

  /** The query a batch runs, given only to the database it was prepared on. */
  queryFor(host: SqlStorageHost): SqlQuery | null {
    return host === this.#host ? this.#query : null;
  }

  #run(): SqlOutcome {
    const [outcome] = runInTransaction(this.#host, [this.#query]);
    if (!outcome) throw new Error("D1_ERROR: the statement gave no result");
    return outcome;
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return toD1Result<T>(this.#run());
  }

  /** As D1's: the rows come back too (a write with RETURNING, or a read run through `run`). */
  async run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return toD1Result<T>(this.#run());
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  async first<T>(colName?: string): Promise<T | null> {
    const [row] = toD1Result<Record<string, unknown>>(this.#run()).results;
    if (row === undefined) return null;
    if (colName === undefined) return row as T;
    // D1 refuses a column the row does not have rather than answering null.
    if (row[colName] === undefined) {
      throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${colName})`, {
        cause: new Error("Column not found"),
      });
    }
    return row[colName] as T;
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> {
    const outcome = this.#run();
    const rows = outcome.rows as T[];
    // The names come first even when no row does, as in D1.
    return options?.columnNames ? [outcome.columns, ...rows] : rows;
  }
}
