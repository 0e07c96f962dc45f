/**
 * A D1 binding that times every round trip by the statement's SQL, for `npm run bench -- kb`
 * (`mode: "profile"`): where one kb_search spends its time. It also keeps the time during
 * which at least one round trip was in flight, so a search's wall time splits into D1 and
 * everything else (the pipeline's own CPU) even when its statements overlap. Local-mode
 * routes only.
 */
export type StatementTimes = Map<string, number[]>;

/**
 * Milliseconds with at least one D1 round trip in flight, round trips started, and the rows
 * D1 reports read (`meta.rows_read`: what the platform bills, independent of the machine's load).
 */
export type D1Busy = { ms: number; trips: number; rowsRead: number };

/** Rows read per statement label. */
export type StatementRows = Map<string, number>;

const rowsOf = (result: unknown): number => {
  const meta = (result as { meta?: { rows_read?: number } } | null)?.meta;
  return typeof meta?.rows_read === "number" ? meta.rows_read : 0;
};

const label = (sql: string) => sql.replace(/\s+/g, " ").trim().slice(0, 160);

export function timingD1(
  db: D1Database,
  times: StatementTimes,
  busy: D1Busy = { ms: 0, trips: 0, rowsRead: 0 },
  rows: StatementRows = new Map(),
): D1Database {
  const record = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
  const count = (key: string, n: number) => {
    busy.rowsRead += n;
    rows.set(key, (rows.get(key) ?? 0) + n);
  };
  let inFlight = 0;
  let since = 0;
  const enter = () => {
    busy.trips++;
    if (inFlight++ === 0) since = performance.now();
  };
  const leave = () => {
    if (--inFlight === 0) busy.ms += performance.now() - since;
  };
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const timed =
      <T>(run: () => Promise<T>) =>
      async () => {
        const started = performance.now();
        enter();
        try {
          const result = await run();
          count(label(sql), rowsOf(result));
          return result;
        } finally {
          leave();
          record(label(sql), performance.now() - started);
        }
      };
    const wrapped = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values), sql),
      // first() hides the meta (rows read): it runs as all(), which is what D1 does too.
      first: async (column?: string) => {
        const { results } = await timed(() => stmt.all<Record<string, unknown>>())();
        const row = results[0] ?? null;
        return column === undefined || row === null ? row : (row[column] ?? null);
      },
      all: () => timed(() => stmt.all())(),
      run: () => timed(() => stmt.run())(),
      raw: (options?: { columnNames?: boolean }) =>
        timed(() => (options?.columnNames ? stmt.raw({ columnNames: true }) : stmt.raw()))(),
    } as unknown as D1PreparedStatement;
    originals.set(wrapped, stmt);
    (wrapped as unknown as { sql: string }).sql = sql;
    return wrapped;
  };
  return {
    prepare: (sql: string) => wrap(db.prepare(sql), sql),
    async batch(statements: D1PreparedStatement[]) {
      const started = performance.now();
      const first = (statements[0] as unknown as { sql?: string }).sql ?? "?";
      const key = `batch×${statements.length}: ${label(first)}`;
      enter();
      try {
        const results = await db.batch(statements.map((s) => originals.get(s) ?? s));
        count(
          key,
          results.reduce((n, r) => n + rowsOf(r), 0),
        );
        return results;
      } finally {
        leave();
        record(key, performance.now() - started);
      }
    },
    exec: (sql: string) => db.exec(sql),
    withSession: () => db,
    dump: () => db.dump(),
  } as unknown as D1Database;
}
