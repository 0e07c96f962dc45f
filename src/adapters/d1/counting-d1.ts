/**
 * A D1 binding that counts what goes through it: statements, round trips (a `batch` is one),
 * and the rows D1 reports in each result's `meta`. For the per-turn bill
 * (`npm run bench -- turn`); only the local-mode bench path builds one (`countingD1` refuses
 * anything else), so production traffic never goes through it.
 *
 * `raw()` results carry no `meta` (drizzle's mapped selects use it): their rows returned are
 * counted apart, as a lower bound of the rows they read.
 */

export type D1Bill = {
  statements: number;
  roundTrips: number;
  rowsRead: number;
  rowsWritten: number;
  /** Rows returned by `raw()` calls, whose rows read D1 does not report. */
  rawRowsReturned: number;
  /** The SQL of every statement, in order, trimmed (to see which ones a turn sends). */
  sql: string[];
  /** Rows read by each statement of `sql`, same order (null for `raw()` and `exec`). */
  rowsReadBySql: (number | null)[];
  /** The round trip each statement of `sql` went in (1-based; a batch's statements share one). */
  roundTripOf: number[];
  /**
   * Wall time (ms) during which at least one D1 call was outstanding: the turn's wait for D1,
   * overlapping calls counted once. The runtime's clock moves only across I/O, so this is
   * the part of a turn spent waiting on D1, the rest being the isolate's own work and yields.
   */
  waitMs: number;
};

const emptyBill = (): D1Bill => ({
  statements: 0,
  roundTrips: 0,
  rowsRead: 0,
  rowsWritten: 0,
  rawRowsReturned: 0,
  sql: [],
  rowsReadBySql: [],
  roundTripOf: [],
  waitMs: 0,
});

type Meta = { rows_read?: number; rows_written?: number } | undefined;

/** `mode` is the runtime mode: anything but `local` is refused, so production never counts. */
export function countingD1(db: D1Database, mode: string): { db: D1Database; bill: () => D1Bill } {
  if (mode !== "local") throw new Error("the counting D1 wrapper is for local mode only");
  let bill = emptyBill();
  // Each statement's rows go to its own slot, so concurrent statements cannot mix them up.
  const addMeta = (slot: number, meta: Meta) => {
    bill.rowsRead += meta?.rows_read ?? 0;
    bill.rowsWritten += meta?.rows_written ?? 0;
    bill.rowsReadBySql[slot] = meta?.rows_read ?? 0;
  };
  const note = (sql: string, roundTrip: number): number => {
    bill.statements++;
    bill.sql.push(sql.replace(/\s+/g, " ").trim().slice(0, 400));
    bill.rowsReadBySql.push(null);
    bill.roundTripOf.push(roundTrip);
    return bill.sql.length - 1;
  };
  let inFlight = 0;
  let since = 0;
  const timed = async <T>(call: () => Promise<T>): Promise<T> => {
    if (inFlight++ === 0) since = performance.now();
    try {
      return await call();
    } finally {
      if (--inFlight === 0) bill.waitMs += performance.now() - since;
    }
  };
  // The wrapped statement remembers its original, so that `batch` can hand D1 the real one.
  const originals = new WeakMap<object, { stmt: D1PreparedStatement; sql: string }>();
  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values), sql),
      async first(column?: string) {
        const slot = note(sql, ++bill.roundTrips);
        const result = await timed(() => stmt.all());
        addMeta(slot, result.meta as Meta);
        const row = (result.results[0] ?? null) as Record<string, unknown> | null;
        return column === undefined ? row : (row?.[column] ?? null);
      },
      async all() {
        const slot = note(sql, ++bill.roundTrips);
        const result = await timed(() => stmt.all());
        addMeta(slot, result.meta as Meta);
        return result;
      },
      async run() {
        const slot = note(sql, ++bill.roundTrips);
        const result = await timed(() => stmt.run());
        addMeta(slot, result.meta as Meta);
        return result;
      },
      async raw(options?: { columnNames?: boolean }) {
        note(sql, ++bill.roundTrips);
        const rows = await timed(() => (options?.columnNames ? stmt.raw({ columnNames: true }) : stmt.raw()));
        bill.rawRowsReturned += Math.max(0, rows.length - (options?.columnNames ? 1 : 0));
        return rows;
      },
    } as unknown as D1PreparedStatement;
    originals.set(wrapped, { stmt, sql });
    return wrapped;
  };
  const counted = {
    prepare: (sql: string) => wrap(db.prepare(sql), sql),
    async batch(statements: D1PreparedStatement[]) {
      const roundTrip = ++bill.roundTrips;
      const real = statements.map((s) => originals.get(s)?.stmt ?? s);
      const slots = statements.map((s) => note(`(batch) ${originals.get(s)?.sql ?? "?"}`, roundTrip));
      const results = await timed(() => db.batch(real));
      for (const [i, r] of results.entries()) addMeta(slots[i] as number, r.meta as Meta);
      return results;
    },
    async exec(sql: string) {
      note(sql, ++bill.roundTrips);
      return timed(() => db.exec(sql));
    },
    withSession: () => {
      throw new Error("sessions are not counted");
    },
    dump: () => db.dump(),
  } as unknown as D1Database;
  return {
    db: counted,
    bill: () => {
      const out = bill;
      bill = emptyBill();
      return out;
    },
  };
}
