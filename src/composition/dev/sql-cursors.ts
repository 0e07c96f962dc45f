/**
 * Local mode only: the rows a chat object's own SQLite reads and writes while a probe runs (the
 * per-turn bill, the history probe), summed from every cursor its `exec` opens; `stop` gives the
 * storage its own `exec` back, so the object's other work is never counted.
 */
export type SqlCursors = {
  readonly rowsRead: () => number;
  readonly rowsWritten: () => number;
  readonly stop: () => void;
};

export function sqlCursors(sql: SqlStorage): SqlCursors {
  const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
  const exec = sql.exec;
  sql.exec = ((query: string, ...bindings: unknown[]) => {
    const cursor = exec.call(sql, query, ...bindings);
    cursors.push(cursor);
    return cursor;
  }) as typeof sql.exec;
  return {
    rowsRead: () => cursors.reduce((n, c) => n + c.rowsRead, 0),
    rowsWritten: () => cursors.reduce((n, c) => n + c.rowsWritten, 0),
    stop: () => {
      sql.exec = exec;
    },
  };
}
