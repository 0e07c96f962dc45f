/** A page of rows and the count of all of them, read in one batch so both see the same table. */
export async function countedPage<R, T>(
  db: D1Database,
  rows: D1PreparedStatement,
  count: D1PreparedStatement,
  map: (row: R) => T,
): Promise<{ items: T[]; total: number }> {
  const [page, counted] = await db.batch<R | { total: number }>([rows, count]);
  return {
    items: ((page?.results ?? []) as R[]).map(map),
    total: (counted?.results[0] as { total: number } | undefined)?.total ?? 0,
  };
}
