/**
 * Full-text search of memory items over `nodes_fts`, hard or soft scope. Scope, sensitivity and
 * portable filters are SQL conditions evaluated before LIMIT, so hidden items never crowd out
 * visible ones.
 */

import { memoryMatch } from "../../domain/memory/memory-query";
import type { MemoryHit, MemorySearchQuery } from "../../domain/memory/memory-store";
import type { ReadableScope } from "../../domain/memory/scope";
import { gateEntries } from "../../domain/retrieval/read-gate";
import { MEMORY_COLUMNS, type MemoryRow, memoryStatusSql, toMemoryItem } from "./d1-memory-rows";
import { gateCondition } from "./d1-read-gate";

/** Soft scope first ranks this many best matches of the pool, then filters them. */
const SOFT_WINDOW = 200;

// Every join with the FTS table is a CROSS JOIN: SQLite then keeps the written order (FTS
// first, nodes looked up by rowid) instead of guessing from an index on a filter column and
// scanning every node — which it does without ANALYZE statistics.

/** The gate's SQL condition for a reader's scopes (d1-read-gate.ts). */
const gate = (scopes: readonly ReadableScope[], alias = "n") => gateCondition(gateEntries(scopes), alias);

/** The best matches of a search, at most 200. */
export async function searchMemory(db: D1Database, q: MemorySearchQuery): Promise<MemoryHit[]> {
  if (q.limit <= 0 || q.scopes.length === 0) return [];
  const limit = Math.min(q.limit, 200);
  return q.soft ? searchSoft(db, q, limit) : searchHard(db, q, limit);
}

/**
 * Hard scope: FTS itself reads only the readable scopes' rows (`scope_token : (…)`), the
 * SQL condition re-checks, and with `perScope` a window keeps each scope's best hits.
 */
async function searchHard(db: D1Database, q: MemorySearchQuery, limit: number): Promise<MemoryHit[]> {
  const match = memoryMatch(q.text, q.scopes);
  if (!match) return [];
  const scopes = gate(q.scopes);
  if (q.perScope !== undefined) {
    const windowed = await searchPerScopeWindows(db, q, Math.max(1, q.perScope), limit);
    if (windowed) return windowed;
  }
  // bm25 weights: the scope token column adds nothing to relevance.
  const hits = `SELECT ${MEMORY_COLUMNS}, bm25(nodes_fts, 1.0, 0.0) AS rank
      FROM nodes_fts CROSS JOIN nodes n ON n.seq = nodes_fts.rowid
      WHERE nodes_fts MATCH ? AND n.node_type = 'memory' AND ${memoryStatusSql(q)} AND ${scopes.sql}`;
  const sql =
    q.perScope !== undefined
      ? `WITH hits AS (${hits}),
             ranked AS (SELECT *, row_number() OVER (PARTITION BY scope_type, scope_id ORDER BY rank) AS rn FROM hits)
           SELECT * FROM ranked WHERE rn <= ? ORDER BY rank LIMIT ?`
      : `${hits} ORDER BY rank LIMIT ?`;
  const binds: (string | number)[] = [match, ...scopes.binds];
  if (q.perScope !== undefined) binds.push(Math.max(1, q.perScope));
  binds.push(limit);
  const { results } = await db
    .prepare(sql)
    .bind(...binds)
    .all<MemoryRow & { rank: number }>();
  return results.map((r) => ({ ...toMemoryItem(r), rank: r.rank }));
}

/**
 * Hard scope with `perScope`, the cheap exact step: each readable scope's FTS query stops at
 * `perScope` rows inside FTS5 (native rank, so SQLite steps only those), and only that
 * window is joined to `nodes` and re-checked by the same SQL condition. A scope's window is
 * exact when every one of its rows passed the re-check (they are then that scope's best
 * visible hits: the window is a prefix of its rank order) or when it held all the scope's
 * matches. If any scope's window is not, null: the caller runs the query over every match.
 * Measured: docs/decisions/0014-memory-recall-windowed-inside-fts.md.
 */
async function searchPerScopeWindows(
  db: D1Database,
  q: MemorySearchQuery,
  perScope: number,
  limit: number,
): Promise<MemoryHit[] | null> {
  const parts = [...new Map(q.scopes.map((s) => [`${s.type}\u0000${s.id}`, s] as const)).values()];
  const matches = parts.map((s) => memoryMatch(q.text, [s]));
  const scopes = gate(q.scopes);
  // Two parameters per window besides the scope condition's, within D1's 100.
  if (matches.some((m) => m === null) || 2 * parts.length + scopes.binds.length > 100) return null;
  const windows = parts
    .map(
      (_, i) => `SELECT * FROM (SELECT rowid AS seq, rank, ${i} AS part FROM nodes_fts
           WHERE nodes_fts MATCH ? AND rank MATCH 'bm25(1.0, 0.0)' ORDER BY rank LIMIT ?)`,
    )
    .join(" UNION ALL ");
  // Every window row comes back once: the node's columns when it passed the re-check (in the
  // LEFT JOIN's ON, so a row that fails it comes back as its window slot alone, node_id
  // NULL, never with the node's columns). Counting a window's rows needs no second pass.
  const { results } = await db
    .prepare(
      `SELECT ${MEMORY_COLUMNS}, top.rank AS rank, top.part AS part
         FROM (${windows}) AS top
         LEFT JOIN nodes n ON n.seq = top.seq
           AND n.node_type = 'memory' AND ${memoryStatusSql(q)} AND ${scopes.sql}`,
    )
    .bind(...matches.flatMap((m) => [m, perScope]), ...scopes.binds)
    .all<Omit<MemoryRow, "node_id"> & { node_id: string | null; rank: number; part: number }>();
  const pools = new Map<number, number>();
  const byScope = new Map<string, (MemoryRow & { rank: number })[]>();
  const seen = new Set<string>();
  for (const r of results) {
    pools.set(r.part, (pools.get(r.part) ?? 0) + 1);
    if (r.node_id === null || seen.has(r.node_id)) continue;
    seen.add(r.node_id);
    const key = `${r.scope_type}\u0000${r.scope_id}`;
    byScope.set(key, [...(byScope.get(key) ?? []), r as MemoryRow & { rank: number }]);
  }
  for (const [i, s] of parts.entries()) {
    const found = byScope.get(`${s.type}\u0000${s.id}`)?.length ?? 0;
    const pool = pools.get(i) ?? 0;
    if (found < perScope && pool >= perScope) return null;
  }
  for (const rows of byScope.values()) rows.sort((a, b) => a.rank - b.rank);
  return [...byScope.values()]
    .flatMap((rows) => rows.slice(0, perScope))
    .sort((a, b) => a.rank - b.rank)
    .slice(0, limit)
    .map((r) => ({ ...toMemoryItem(r), rank: r.rank }));
}

/**
 * Soft scope: the whole pool, visible = the turn's own scopes, or public and portable. The
 * visibility condition is SQL applied before LIMIT, in two exact steps: first over the
 * best-ranked window of the pool (as cheap as a bare MATCH); only if that window holds too
 * few visible items, over every match. Either way hidden items cannot crowd out visible ones.
 */
async function searchSoft(db: D1Database, q: MemorySearchQuery, limit: number): Promise<MemoryHit[]> {
  const match = memoryMatch(q.text, null);
  if (!match) return [];
  const scopes = gate(q.scopes);
  const visible = `n.node_type = 'memory' AND ${memoryStatusSql(q)}
      AND (${scopes.sql} OR (n.sensitivity = 'public' AND n.portable = 1))`;
  const windowed = await db
    .prepare(
      `WITH top AS (SELECT rowid AS seq, bm25(nodes_fts, 1.0, 0.0) AS rank FROM nodes_fts
                      WHERE nodes_fts MATCH ? ORDER BY rank LIMIT ?)
         SELECT ${MEMORY_COLUMNS}, top.rank AS rank, (SELECT count(*) FROM top) AS pool
         FROM top CROSS JOIN nodes n ON n.seq = top.seq WHERE ${visible} ORDER BY top.rank LIMIT ?`,
    )
    .bind(match, SOFT_WINDOW, ...scopes.binds, limit)
    .all<MemoryRow & { rank: number; pool: number }>();
  const rows = windowed.results;
  // The window was the whole match set, or already holds `limit` visible items: exact.
  if (rows.length >= limit || (rows.length > 0 && (rows[0]?.pool ?? 0) < SOFT_WINDOW)) {
    return rows.map((r) => ({ ...toMemoryItem(r), rank: r.rank }));
  }
  // FTS5 yields rows in rank order here (rank MATCH + ORDER BY rank), so the join stops
  // as soon as `limit` visible rows passed the condition.
  const { results } = await db
    .prepare(
      `SELECT ${MEMORY_COLUMNS}, nodes_fts.rank AS rank FROM nodes_fts CROSS JOIN nodes n ON n.seq = nodes_fts.rowid
         WHERE nodes_fts MATCH ? AND nodes_fts.rank MATCH 'bm25(1.0, 0.0)' AND ${visible}
         ORDER BY nodes_fts.rank LIMIT ?`,
    )
    .bind(match, ...scopes.binds, limit)
    .all<MemoryRow & { rank: number }>();
  return results.map((r) => ({ ...toMemoryItem(r), rank: r.rank }));
}
