/**
 * A forget in D1 erases, not only hides (docs/decisions/0890-a-forget-erases-index-pages.md): an
 * FTS5 delete otherwise writes a tombstone and the forgotten terms stay in the index's pages until
 * a merge reaches them. `erasing` wraps a forget's delete statements, in one batch (one
 * transaction), between statements that turn the indexes' secure-delete on and off again: off,
 * because it makes every delete dearer (23 times for the retention's chunked deletes,
 * docs/experiments/0700-fts-secure-delete.md) and only a forget needs it.
 */
export type FtsIndex = "messages_fts" | "message_windows_fts" | "nodes_fts";

/** The message log's indexes: a message's own and its turn windows'. */
export const LOG_INDEXES: readonly FtsIndex[] = ["messages_fts", "message_windows_fts"];

export function erasing(
  db: D1Database,
  indexes: readonly FtsIndex[],
  deletes: readonly D1PreparedStatement[],
): D1PreparedStatement[] {
  // A literal: FTS5 takes the option's value from the statement, and refuses a bound parameter.
  const secureDelete = (on: 0 | 1) =>
    indexes.map((fts) => db.prepare(`INSERT INTO ${fts} (${fts}, rank) VALUES ('secure-delete', ${on})`));
  return [...secureDelete(1), ...deletes, ...secureDelete(0)];
}
