/**
 * Rewrites a text column of the rows one query selects, row by row: what a value named a secret
 * after it was stored (named-after-logging.ts) does to each table that holds words. Only the rows
 * the function changes are written. Returns how many were.
 */
export function rewriteTexts(
  sql: SqlStorage,
  rows: { table: string; key: string; where: string; params: readonly (string | number)[] },
  hide: (text: string) => string,
): number {
  const found = sql
    .exec<{ k: number; text: string }>(
      `SELECT ${rows.key} AS k, text FROM ${rows.table} WHERE ${rows.where}`,
      ...rows.params,
    )
    .toArray();
  let changed = 0;
  for (const row of found) {
    const text = hide(row.text);
    if (text === row.text) continue;
    sql.exec(`UPDATE ${rows.table} SET text = ? WHERE ${rows.key} = ?`, text, row.k);
    changed++;
  }
  return changed;
}
