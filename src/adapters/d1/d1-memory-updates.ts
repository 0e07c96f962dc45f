/**
 * The statements of a memory commit that change existing items: archive, close (supersede) with
 * its edge, and update. Each carries the commit's writable-scope condition, so even a wrong id
 * cannot touch an item outside the scopes the commit may write.
 */

import type { MemoryCommit, MemoryUpdate } from "../../domain/memory/memory-store";

/** The commit's writable scopes as an SQL condition on `nodes` (d1-read-gate.ts). */
export type WritableSql = { sql: string; binds: string[] };

/**
 * An active or closed item of a writable scope becomes archived (forgotten: a closed item is
 * still the person's to forget); any other id, nothing.
 */
export function statusStatement(
  db: D1Database,
  status: "archived",
  nodeId: string,
  at: number,
  writable: WritableSql,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE nodes SET status = ?, updated_at = ?
         WHERE node_id = ? AND node_type = 'memory' AND status IN ('active', 'superseded') AND ${writable.sql}`,
    )
    .bind(status, at, nodeId, ...writable.binds);
}

/**
 * A person's forget of an active or superseded item of a writable scope: its row, then its edges
 * and the candidate rows holding a copy of its text (its own insert's, and any that merged into,
 * closed or archived it), only once the row is gone — any other id deletes nothing. Three
 * statements, the row's first; the caller wraps them in `erasing` (d1-fts-erase.ts).
 */
export function eraseStatements(
  db: D1Database,
  nodeId: string,
  writable: WritableSql,
): [D1PreparedStatement, ...D1PreparedStatement[]] {
  const gone = "NOT EXISTS (SELECT 1 FROM nodes WHERE node_id = ?1)";
  return [
    db
      .prepare(
        `DELETE FROM nodes WHERE node_id = ? AND node_type = 'memory' AND status IN ('active', 'superseded')
           AND ${writable.sql} RETURNING node_id`,
      )
      .bind(nodeId, ...writable.binds),
    db.prepare(`DELETE FROM edges WHERE (src_id = ?1 OR dst_id = ?1) AND ${gone}`).bind(nodeId),
    db
      .prepare(`DELETE FROM memory_candidates WHERE (node_id = ?1 OR target_node_id = ?1) AND ${gone}`)
      .bind(nodeId),
  ];
}

/**
 * An active item of a writable scope is closed by a newer statement: superseded, valid until
 * the newer one became true (never before it itself began), and naming what closed it. Any
 * other id, nothing. Text and sensitivity stay as they were.
 */
export function closeStatement(
  db: D1Database,
  oldId: string,
  newId: string,
  validTo: number,
  at: number,
  writable: WritableSql,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE nodes SET status = 'superseded', updated_at = ?,
           valid_to = MAX(COALESCE(valid_from, created_at), ?), closed_by = ?
         WHERE node_id = ? AND node_type = 'memory' AND status = 'active' AND ${writable.sql}`,
    )
    .bind(at, validTo, newId, oldId, ...writable.binds);
}

/** The supersedes edge, only when both nodes exist and the old one was superseded. */
export function supersedesEdge(
  db: D1Database,
  oldId: string,
  newId: string,
  at: number,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO edges (src_id, dst_id, edge_type, created_at)
         SELECT ?, ?, 'supersedes', ?
         WHERE EXISTS (SELECT 1 FROM nodes WHERE node_id = ?)
           AND EXISTS (SELECT 1 FROM nodes WHERE node_id = ? AND status = 'superseded')`,
    )
    .bind(newId, oldId, at, newId, oldId);
}

/**
 * A stricter or explicit tag, a higher importance, a merge's confidence and joined evidence;
 * null when the update changes nothing.
 */
export function updateStatement(
  db: D1Database,
  u: MemoryUpdate,
  c: Pick<MemoryCommit, "at" | "chatKey">,
  writable: WritableSql,
): D1PreparedStatement | null {
  const sets: string[] = [];
  const values: (string | number)[] = [];
  if (u.tag) {
    sets.push("sensitivity = ?", "sensitivity_source = ?");
    values.push(u.tag.sensitivity, u.tag.source);
  }
  if (u.importance !== undefined) {
    sets.push("importance = ?");
    values.push(Math.min(1, Math.max(0, u.importance)));
  }
  if (u.confidence !== undefined) {
    sets.push("confidence = ?");
    values.push(Math.min(1, Math.max(0, u.confidence)));
  }
  if (u.evidence) {
    // A merged restatement's joined evidence (merge.ts); the text, and so the FTS row, stays.
    sets.push("provenance = ?");
    values.push(JSON.stringify({ type: "conversation", ...u.evidence }));
  }
  if (sets.length === 0) return null;
  // A chat whose storage is off changes no item either, as the insert trigger keeps it from
  // adding one (migration 0100): its words never join another item's evidence.
  return db
    .prepare(
      `UPDATE nodes SET ${sets.join(", ")}, updated_at = ?
         WHERE node_id = ? AND node_type = 'memory' AND status = 'active' AND ${writable.sql}
           AND NOT EXISTS (SELECT 1 FROM chat_sessions s WHERE s.store_enabled = 0
             AND (s.chat_key = ? OR substr(?, 1, length(s.chat_key) + 1) = s.chat_key || ':'))`,
    )
    .bind(...values, c.at, u.nodeId, ...writable.binds, c.chatKey, c.chatKey);
}
