/**
 * A forget in the chat object's log erases, not only hides (docs/decisions/0890-a-forget-erases-index-pages.md):
 * an FTS5 delete writes a tombstone, and the forgotten terms stay in the index's pages until a
 * merge reaches them. The object's log is one chat's, so its indexes are small enough to rewrite.
 */
const LOG_INDEXES = ["messages_fts", "message_windows_fts"] as const;

/**
 * Empties both indexes outright, for a log that holds nothing any more (a forget of the chat):
 * nothing is left to index, and this costs nothing per row.
 */
export function emptyIndexes(sql: SqlStorage): void {
  for (const fts of LOG_INDEXES) sql.exec(`INSERT INTO ${fts} (${fts}) VALUES ('delete-all')`);
}

/**
 * Rewrites both indexes into one segment each, without what was deleted: after a forget of some
 * rows (a person's), whose tombstones and old pages would keep their terms. About 0.14 s per
 * 100,000 messages for the messages' index (docs/experiments/0700-fts-secure-delete.md).
 */
export function compactIndexes(sql: SqlStorage): void {
  for (const fts of LOG_INDEXES) sql.exec(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`);
}
