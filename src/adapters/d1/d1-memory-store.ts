/**
 * MemoryStore and MemoryIndex over the D1 context store (`nodes`, `nodes_fts`, `edges`,
 * `memory_candidates`, `memory_runs`). Scope, sensitivity and portable filters are SQL
 * conditions evaluated before LIMIT; status changes carry a scope condition of their own, so
 * even a wrong id cannot touch an item outside the commit's writable scopes.
 * The search is d1-memory-search.ts, a commit's statements d1-memory-commit.ts, the row
 * mapping d1-memory-rows.ts.
 */

import { err, ok, type Result } from "../../domain/kernel/result";
import type { ReinforceCause } from "../../domain/memory/decay";
import type { MemoryItem, NewMemory, Sensitivity } from "../../domain/memory/memory";
import type {
  ActiveQuery,
  CommitReport,
  MemoryCommit,
  MemoryHit,
  MemoryIndex,
  MemorySearchQuery,
  MemoryStore,
} from "../../domain/memory/memory-store";
import type { ReadableScope, Scope } from "../../domain/memory/scope";
import { gateEntries } from "../../domain/retrieval/read-gate";
import { jsonChunks } from "./d1-json-chunks";
import { commitStatements, type StatementKind } from "./d1-memory-commit";
import { reinforceStatement } from "./d1-memory-decay";
import { insertMemoryStatement } from "./d1-memory-inserts";
import { MEMORY_COLUMNS, type MemoryRow, memoryStatusSql, toMemoryItem } from "./d1-memory-rows";
import { searchMemory } from "./d1-memory-search";
import { gateArms, gateCondition } from "./d1-read-gate";
import { memoryContentHash } from "./memory-content-hash";

/** The gate's SQL condition for a reader's scopes (d1-read-gate.ts). */
const gate = (scopes: readonly ReadableScope[], alias = "n") => gateCondition(gateEntries(scopes), alias);

export class D1MemoryStore implements MemoryStore, MemoryIndex {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  search(q: MemorySearchQuery): Promise<MemoryHit[]> {
    return searchMemory(this.#db, q);
  }

  /**
   * A scope's active items, most important first; over several scopes, each scope's own
   * best `limit` (one range of nodes_scope_importance or nodes_scope_kind each, stopping at
   * the LIMIT) merged here. One condition over every scope would make SQLite walk each
   * scope's range into a sorter instead, reading two or three times the rows.
   */
  async listActive(q: ActiveQuery): Promise<MemoryItem[]> {
    if (q.limit <= 0 || q.scopes.length === 0) return [];
    if (q.authors?.length === 0) return [];
    const limit = Math.min(q.limit, 500);
    const kinds = (q.kinds ?? []).slice(0, 10);
    const arms = gateArms(gateEntries(q.scopes));
    if (arms.length === 0) return [];
    // ?1 the floor, ?2 the limit, ?3… the kinds, then the authors; each arm's own scope values after them.
    let next = 3 + kinds.length;
    const kindSql = kinds.length > 0 ? `AND n.kind IN (${kinds.map((_, i) => `?${3 + i}`).join(", ")})` : "";
    const authors = q.authors ? [JSON.stringify(q.authors.slice(0, 20))] : [];
    const authorSql = q.authors
      ? `AND n.provenance ->> '$.account' IN (SELECT value FROM json_each(?${next++}))`
      : "";
    const sql = arms
      .map((arm) => {
        const sqlOf = arm.sql.replace(/\?/g, () => `?${next++}`);
        return `SELECT * FROM (SELECT ${MEMORY_COLUMNS} FROM nodes n
           WHERE ${sqlOf} AND n.node_type = 'memory' AND ${memoryStatusSql(q)} AND n.importance >= ?1 ${kindSql} ${authorSql}
           ORDER BY n.importance DESC, n.updated_at DESC LIMIT ?2)`;
      })
      .join(" UNION ALL ");
    const { results } = await this.#db
      .prepare(sql)
      .bind(q.minImportance ?? 0, limit, ...kinds, ...authors, ...arms.flatMap((a) => a.binds))
      .all<MemoryRow>();
    // A scope listed twice (at different levels) gives its rows twice.
    const unique = [...new Map(results.map((r) => [r.node_id, r] as const)).values()];
    return unique
      .sort((a, b) => b.importance - a.importance || b.updated_at - a.updated_at)
      .slice(0, limit)
      .map(toMemoryItem);
  }

  /** Reinforces active items once per cause (d1-memory-decay.ts); the number reinforced. */
  async reinforce(nodeIds: readonly string[], cause: ReinforceCause, at: number): Promise<number> {
    if (nodeIds.length === 0) return 0;
    const result = await reinforceStatement(this.#db, nodeIds, cause, at).run();
    return result.meta.changes ?? 0;
  }

  async get(nodeId: string): Promise<MemoryItem | null> {
    const row = await this.#db
      .prepare(`SELECT ${MEMORY_COLUMNS} FROM nodes n WHERE n.node_id = ? AND n.node_type = 'memory'`)
      .bind(nodeId)
      .first<MemoryRow>();
    return row ? toMemoryItem(row) : null;
  }

  async load(nodeIds: readonly string[]): Promise<MemoryItem[]> {
    const out: MemoryItem[] = [];
    for (const ids of jsonChunks([...new Set(nodeIds)])) {
      const { results } = await this.#db
        .prepare(
          `SELECT ${MEMORY_COLUMNS} FROM nodes n
           WHERE n.node_id IN (SELECT value FROM json_each(?1)) AND n.node_type = 'memory'`,
        )
        .bind(ids)
        .all<MemoryRow>();
      out.push(...results.map(toMemoryItem));
    }
    return out;
  }

  async findDuplicate(
    scope: Scope,
    text: string,
    levels: readonly Sensitivity[],
  ): Promise<MemoryItem | null> {
    const visible = gate([{ ...scope, sensitivities: levels }]);
    const row = await this.#db
      .prepare(
        `SELECT ${MEMORY_COLUMNS} FROM nodes n
         WHERE n.scope_type = ? AND n.scope_id = ? AND n.content_hash = ? AND n.node_type = 'memory' AND n.status = 'active'
           AND ${visible.sql}
         LIMIT 1`,
      )
      .bind(scope.type, scope.id, await memoryContentHash(text), ...visible.binds)
      .first<MemoryRow>();
    return row ? toMemoryItem(row) : null;
  }

  async findBySubject(
    scope: Scope,
    subjectKey: string,
    levels: readonly Sensitivity[],
  ): Promise<MemoryItem[]> {
    const visible = gate([{ ...scope, sensitivities: levels }]);
    const { results } = await this.#db
      .prepare(
        `SELECT ${MEMORY_COLUMNS} FROM nodes n
         WHERE n.scope_type = ? AND n.scope_id = ? AND json_extract(n.metadata, '$.subjectKey') = ?
           AND n.node_type = 'memory' AND n.status = 'active' AND ${visible.sql}
         ORDER BY n.updated_at DESC LIMIT 20`,
      )
      .bind(scope.type, scope.id, subjectKey, ...visible.binds)
      .all<MemoryRow>();
    return results.map(toMemoryItem);
  }

  async latestSummary(scope: Scope, levels: readonly Sensitivity[]) {
    const visible = gate([{ ...scope, sensitivities: levels }]);
    const row = await this.#db
      .prepare(
        `SELECT n.node_id, n.raw_text, n.created_at, n.sensitivity FROM nodes n
         WHERE n.scope_type = ? AND n.scope_id = ? AND n.node_type = 'summary' AND n.status = 'active'
           AND ${visible.sql}
         ORDER BY n.created_at DESC LIMIT 1`,
      )
      .bind(scope.type, scope.id, ...visible.binds)
      .first<{ node_id: string; raw_text: string; created_at: number; sensitivity: Sensitivity }>();
    return row
      ? { nodeId: row.node_id, text: row.raw_text, createdAt: row.created_at, sensitivity: row.sensitivity }
      : null;
  }

  async commit(c: MemoryCommit): Promise<Result<CommitReport, { kind: "already-applied"; runId: string }>> {
    const batch = await commitStatements(this.#db, c, (ids) => this.load(ids));
    if (batch.statements.length === 0)
      return ok({ inserted: 0, superseded: 0, archived: 0, erased: 0, updated: 0 });
    let results: D1Result[];
    try {
      results = await this.#db.batch(batch.statements);
    } catch (e) {
      if (c.run && /UNIQUE|constraint/i.test(String(e)) && (await this.hasRun(c.runId))) {
        return err({ kind: "already-applied", runId: c.runId });
      }
      throw e;
    }
    const changed = (kind: StatementKind) =>
      results.reduce((n, r, i) => n + (batch.kinds[i] === kind ? (r.meta.changes ?? 0) : 0), 0);
    return ok({
      inserted: changed("insert"),
      superseded: changed("supersede"),
      archived: changed("archive"),
      // Rows returned, not changes: D1 counts the FTS trigger's writes among a delete's changes.
      erased: results.reduce((n, r, i) => n + (batch.kinds[i] === "erase" ? (r.results?.length ?? 0) : 0), 0),
      updated: changed("update"),
    });
  }

  /**
   * The INSERT of one item, for the admin's add, which batches it with its audit row. Like every
   * insert it is dropped by the storage-off trigger and ignored for an existing id.
   */
  insertStatement(item: NewMemory, at: number): Promise<D1PreparedStatement> {
    return insertMemoryStatement(this.#db, item, at);
  }

  async hasRun(runId: string): Promise<boolean> {
    return (
      (await this.#db.prepare("SELECT 1 AS x FROM memory_runs WHERE run_id = ?").bind(runId).first()) !== null
    );
  }
}
