/**
 * A D1 binding that times every round trip by the statement's SQL, for `npm run bench -- kb`
 * (`mode: "profile"`): where one kb_search spends its time. Local-mode routes only.
 */
export type StatementTimes = Map<string, number[]>;

const label = (sql: string) => sql.replace(/\s+/g, " ").trim().slice(0, 160);

export function timingD1(db: D1Database, times: StatementTimes): D1Database {
  const record = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const timed =
      <T>(run: () => Promise<T>) =>
      async () => {
        const started = performance.now();
        try {
          return await run();
        } finally {
          record(label(sql), performance.now() - started);
        }
      };
    const wrapped = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values), sql),
      first: (column?: string) => timed(() => (column === undefined ? stmt.first() : stmt.first(column)))(),
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
      try {
        return await db.batch(statements.map((s) => originals.get(s) ?? s));
      } finally {
        const first = (statements[0] as unknown as { sql?: string }).sql ?? "?";
        record(`batch×${statements.length}: ${label(first)}`, performance.now() - started);
      }
    },
    exec: (sql: string) => db.exec(sql),
    withSession: () => db,
    dump: () => db.dump(),
  } as unknown as D1Database;
}
