/**
 * A D1 binding whose reads started together travel together: every `first()` and `all()`
 * begun in the same turn of the event loop goes to D1 as one `batch` (one round trip), and
 * the same statement with the same values is sent once. A turn's recall starts its memory,
 * history and knowledge reads side by side (`Promise.all`), so each wave of them costs one
 * round trip instead of one per statement, without the recall code knowing about batches.
 *
 * Only reads are gathered: `run()` (writes), `raw()` (column order matters to drizzle) and
 * `batch` go straight through, so no write ever changes its transaction or its order. A
 * gathered batch that fails is retried statement by statement, so each caller gets its own
 * statement's result or error, as it would have without the batch. Measured:
 * docs/decisions/0013-turn-reads-travel-in-one-batch.md.
 */

type Pending = {
  readonly stmt: D1PreparedStatement;
  readonly key: string | null;
  readonly resolve: (result: D1Result) => void;
  readonly reject: (error: unknown) => void;
};

/** Values that identify a statement's bindings exactly; anything else (a blob) is never deduplicated. */
const plain = (v: unknown): boolean =>
  v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

export function coalescingD1(db: D1Database): D1Database {
  let pending: Pending[] = [];

  const flush = async () => {
    const wave = pending;
    pending = [];
    // One D1 statement per distinct (SQL, values); the callers of a duplicate share its result.
    const distinct: Pending[][] = [];
    const byKey = new Map<string, Pending[]>();
    for (const p of wave) {
      const same = p.key === null ? undefined : byKey.get(p.key);
      if (same) same.push(p);
      else {
        const group = [p];
        distinct.push(group);
        if (p.key !== null) byKey.set(p.key, group);
      }
    }
    const settle = (group: Pending[], result: D1Result) => {
      for (const p of group) p.resolve(result);
    };
    const alone = async (group: Pending[]) => {
      try {
        settle(group, await (group[0] as Pending).stmt.all());
      } catch (e) {
        for (const p of group) p.reject(e);
      }
    };
    if (distinct.length === 1) return alone(distinct[0] as Pending[]);
    let results: D1Result[];
    try {
      results = await db.batch(distinct.map((g) => (g[0] as Pending).stmt));
    } catch {
      // Which statement failed is not told apart by a batch: each runs alone, and only its
      // own callers see its error.
      await Promise.all(distinct.map(alone));
      return;
    }
    for (const [i, group] of distinct.entries()) settle(group, results[i] as D1Result);
  };

  const read = (stmt: D1PreparedStatement, key: string | null): Promise<D1Result> =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setTimeout(flush, 0);
      pending.push({ stmt, key, resolve, reject });
    });

  const wrap = (
    stmt: D1PreparedStatement,
    sql: string,
    values: readonly unknown[] | null,
  ): D1PreparedStatement => {
    const key = values?.every(plain) ? `${sql}\u0000${JSON.stringify(values)}` : null;
    const wrapped = {
      bind: (...bound: unknown[]) => wrap(stmt.bind(...bound), sql, bound),
      async first(column?: string) {
        const row = ((await read(stmt, key)).results[0] ?? null) as Record<string, unknown> | null;
        return column === undefined ? row : (row?.[column] ?? null);
      },
      all: () => read(stmt, key),
      run: () => stmt.run(),
      raw: (options?: { columnNames?: boolean }) =>
        options?.columnNames ? stmt.raw({ columnNames: true }) : stmt.raw(),
    } as unknown as D1PreparedStatement;
    originals.set(wrapped, stmt);
    return wrapped;
  };
  // `batch` and a gathered wave hand D1 the statements it made, not the wrappers.
  const originals = new WeakMap<object, D1PreparedStatement>();

  return {
    prepare: (sql: string) => wrap(db.prepare(sql), sql, []),
    batch: (statements: D1PreparedStatement[]) => db.batch(statements.map((s) => originals.get(s) ?? s)),
    exec: (sql: string) => db.exec(sql),
    withSession: (constraint?: string) => db.withSession(constraint),
    dump: () => db.dump(),
  } as unknown as D1Database;
}
