/**
 * The D1 binding's API over a Durable Object's own SQLite, so that the D1 adapters of the
 * message log run unchanged over a chat object's log: `new D1RecentMessages(new
 * SqlStorageDatabase(ctx.storage))`. It implements D1Database as a whole, so no cast is needed.
 *
 * What differs from D1 (each also said where it is done):
 * - Sessions (`withSession`) and `dump` are refused: the object's storage has its own
 *   bookmarks and there is no replica to read.
 * - `meta.duration` is 0 unless I/O moved the clock: the runtime's clock stands still during
 *   synchronous work, and the SQL runs synchronously.
 * - Statements run in the order they are called, before their promise settles; a D1 call goes
 *   over the network and concurrent calls may reach D1 in any order.
 * - `exec` runs its whole text in one transaction (a failing statement leaves none applied, as
 *   local D1 does) and may span lines; D1 reads one statement per line. Its `count` is the
 *   number of lines, as D1's.
 * - No D1-side limits (statement duration, response size) and no retries: the database is the
 *   object's own, in its process. SQLite's own limits are the same (100 bound parameters).
 */
import { SqlStoragePreparedStatement } from "./sql-storage-prepared-statement";
import { d1Error, runInTransaction, type SqlQuery, type SqlStorageHost, toD1Result } from "./sql-storage-run";

export class SqlStorageDatabase implements D1Database {
  readonly #host: SqlStorageHost;

  /** `host` is the object's `ctx.storage`: its `sql`, and `transactionSync` for batches. */
  constructor(host: SqlStorageHost) {
    this.#host = host;
  }

  prepare(query: string): SqlStoragePreparedStatement {
    return new SqlStoragePreparedStatement(this.#host, query);
  }

  /**
   * Runs the statements in order inside one transaction, as D1 does: if one fails the promise
   * rejects with its error and none of them is applied.
   */
  async batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const queries = statements.map((s) => this.#queryOf(s));
    return runInTransaction(this.#host, queries).map((outcome) => toD1Result<T>(outcome));
  }

  #queryOf(statement: D1PreparedStatement): SqlQuery {
    const query = statement instanceof SqlStoragePreparedStatement ? statement.queryFor(this.#host) : null;
    if (!query) throw new Error("D1_ERROR: a batch takes only statements prepared on the same database");
    return query;
  }

  /** Several statements without bindings, in one transaction (see the note at the top). */
  async exec(query: string): Promise<D1ExecResult> {
    try {
      const started = performance.now();
      this.#host.transactionSync(() => {
        // Read to its end inside the transaction: no cursor outlives this call.
        this.#host.sql.exec(query).toArray();
      });
      return { count: query.trim().split("\n").length, duration: performance.now() - started };
    } catch (error) {
      throw d1Error(error, "D1_EXEC_ERROR");
    }
  }

  withSession(): D1DatabaseSession {
    throw new Error("D1 sessions are not supported over a Durable Object's SQLite (there is no replica)");
  }

  async dump(): Promise<ArrayBuffer> {
    throw new Error("dump is not supported over a Durable Object's SQLite");
  }
}
