/**
 * MemoryStore and MemoryIndex over the D1 context store (`nodes`, `nodes_fts`, `edges`,
 * `memory_candidates`, `memory_runs`). Scope, sensitivity and portable filters are SQL
 * conditions evaluated before LIMIT; status changes carry a scope condition of their own, so
 * even a wrong id cannot touch an item outside the commit's writable scopes.
 */

import { err, ok, type Result } from "../../domain/kernel/result";
import type { ReinforceCause } from "../../domain/memory/decay";
import type {
  MemoryEvidence,
  MemoryItem,
  MemorySource,
  NewMemory,
  Sensitivity,
} from "../../domain/memory/memory";
import { normalizeMemoryText } from "../../domain/memory/memory";
import { memoryMatch } from "../../domain/memory/memory-query";
import type {
  CandidateRecord,
  CommitReport,
  MemoryCommit,
  MemoryHit,
  MemoryIndex,
  MemorySearchQuery,
  MemoryStore,
  MemoryUpdate,
  SummaryNode,
} from "../../domain/memory/memory-store";
import {
  includesScope,
  isMemoryKind,
  type ReadableScope,
  type Scope,
  type ScopeType,
} from "../../domain/memory/scope";
import { gateEntries } from "../../domain/retrieval/read-gate";
import { indexText } from "../../domain/text/search-tokens";
import { jsonChunks } from "./d1-json-chunks";
import { DECAY_COLUMNS, type DecayRow, decayOf, reinforceStatement } from "./d1-memory-decay";
import { gateArms, gateCondition } from "./d1-read-gate";

/** Soft scope first ranks this many best matches of the pool, then filters them. */
const SOFT_WINDOW = 200;

// Every join with the FTS table is a CROSS JOIN: SQLite then keeps the written order (FTS
// first, nodes looked up by rowid) instead of guessing from an index on a filter column and
// scanning every node — which it does without ANALYZE statistics.
const COLUMNS = `n.node_id, n.scope_type, n.scope_id, n.kind, n.raw_text, n.importance, n.confidence,
  n.sensitivity, n.sensitivity_source, n.portable, n.status, n.metadata, n.provenance, n.created_at, n.updated_at,
  n.valid_from, n.valid_to, n.closed_by, ${DECAY_COLUMNS}`;

type Row = {
  node_id: string;
  scope_type: ScopeType;
  scope_id: string;
  kind: string | null;
  raw_text: string;
  importance: number;
  confidence: number;
  sensitivity: MemoryItem["sensitivity"];
  sensitivity_source: MemoryItem["sensitivitySource"];
  portable: number;
  status: MemoryItem["status"];
  metadata: string;
  provenance: string;
  created_at: number;
  updated_at: number;
  valid_from: number | null;
  valid_to: number | null;
  closed_by: string | null;
} & DecayRow;

/** The gate's SQL condition for a reader's scopes (d1-read-gate.ts). */
const gate = (scopes: readonly ReadableScope[], alias = "n") => gateCondition(gateEntries(scopes), alias);

function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The statements merged into an item, as its provenance recorded them (merge.ts). */
function sourcesOf(raw: readonly unknown[]): MemorySource[] {
  return raw.flatMap((x) => {
    if (typeof x !== "object" || x === null) return [];
    const o = x as Record<string, unknown>;
    if (typeof o.session !== "string" || typeof o.runId !== "string") return [];
    const origin = o.origin === "explicit" || o.origin === "tool" ? o.origin : "dream";
    return [
      {
        session: o.session,
        runId: o.runId,
        origin,
        account: typeof o.account === "string" ? o.account : null,
      },
    ];
  });
}

function toItem(r: Row): MemoryItem {
  const meta = parseJson(r.metadata);
  const prov = parseJson(r.provenance);
  const evidence: MemoryEvidence | null =
    typeof prov.session === "string"
      ? {
          session: prov.session,
          messageIds: Array.isArray(prov.messageIds)
            ? prov.messageIds.filter((m): m is string => typeof m === "string")
            : [],
          account: typeof prov.account === "string" ? prov.account : null,
          person: typeof prov.person === "string" ? prov.person : null,
          origin: prov.origin === "explicit" || prov.origin === "tool" ? prov.origin : "dream",
          runId: typeof prov.runId === "string" ? prov.runId : "",
          ...(Array.isArray(prov.sources) ? { sources: sourcesOf(prov.sources) } : {}),
        }
      : null;
  return {
    nodeId: r.node_id,
    scope: { type: r.scope_type, id: r.scope_id },
    kind: isMemoryKind(r.kind) ? r.kind : "fact",
    text: r.raw_text,
    importance: r.importance,
    confidence: r.confidence,
    sensitivity: r.sensitivity,
    sensitivitySource: r.sensitivity_source,
    portable: r.portable === 1,
    status: r.status,
    subjectKey: typeof meta.subjectKey === "string" ? meta.subjectKey : null,
    evidence,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    validFrom: r.valid_from ?? r.created_at,
    validTo: r.valid_to,
    closedBy: r.closed_by,
    decay: decayOf(r),
  };
}

/** Which statuses a search reads: current items, or for a question about the past closed ones too. */
const statusSql = (q: Pick<MemorySearchQuery, "closed">) =>
  q.closed ? "n.status IN ('active', 'superseded')" : "n.status = 'active'";

const encoder = new TextEncoder();

/** The node's content hash: SHA-256 of the normalized text (de-duplication, embeddings cache). */
export async function memoryContentHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(normalizeMemoryText(text)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const SOURCE_TYPE = { dream: "conversation", explicit: "human", tool: "tool" } as const;

/** What a commit statement's change count means in the report. */
type StatementKind = "run" | "insert" | "supersede" | "edge" | "archive" | "update" | "other";

export class D1MemoryStore implements MemoryStore, MemoryIndex {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async search(q: MemorySearchQuery): Promise<MemoryHit[]> {
    if (q.limit <= 0 || q.scopes.length === 0) return [];
    const limit = Math.min(q.limit, 200);
    return q.soft ? this.#searchSoft(q, limit) : this.#searchHard(q, limit);
  }

  /**
   * Hard scope: FTS itself reads only the readable scopes' rows (`scope_token : (…)`), the
   * SQL condition re-checks, and with `perScope` a window keeps each scope's best hits.
   */
  async #searchHard(q: MemorySearchQuery, limit: number): Promise<MemoryHit[]> {
    const match = memoryMatch(q.text, q.scopes);
    if (!match) return [];
    const scopes = gate(q.scopes);
    if (q.perScope !== undefined) {
      const windowed = await this.#searchPerScopeWindows(q, Math.max(1, q.perScope), limit);
      if (windowed) return windowed;
    }
    // bm25 weights: the scope token column adds nothing to relevance.
    const hits = `SELECT ${COLUMNS}, bm25(nodes_fts, 1.0, 0.0) AS rank
      FROM nodes_fts CROSS JOIN nodes n ON n.seq = nodes_fts.rowid
      WHERE nodes_fts MATCH ? AND n.node_type = 'memory' AND ${statusSql(q)} AND ${scopes.sql}`;
    const sql =
      q.perScope !== undefined
        ? `WITH hits AS (${hits}),
             ranked AS (SELECT *, row_number() OVER (PARTITION BY scope_type, scope_id ORDER BY rank) AS rn FROM hits)
           SELECT * FROM ranked WHERE rn <= ? ORDER BY rank LIMIT ?`
        : `${hits} ORDER BY rank LIMIT ?`;
    const binds: (string | number)[] = [match, ...scopes.binds];
    if (q.perScope !== undefined) binds.push(Math.max(1, q.perScope));
    binds.push(limit);
    const { results } = await this.#db
      .prepare(sql)
      .bind(...binds)
      .all<Row & { rank: number }>();
    return results.map((r) => ({ ...toItem(r), rank: r.rank }));
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
  async #searchPerScopeWindows(
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
    const { results } = await this.#db
      .prepare(
        `SELECT ${COLUMNS}, top.rank AS rank, top.part AS part
         FROM (${windows}) AS top
         LEFT JOIN nodes n ON n.seq = top.seq
           AND n.node_type = 'memory' AND ${statusSql(q)} AND ${scopes.sql}`,
      )
      .bind(...matches.flatMap((m) => [m, perScope]), ...scopes.binds)
      .all<Omit<Row, "node_id"> & { node_id: string | null; rank: number; part: number }>();
    const pools = new Map<number, number>();
    const byScope = new Map<string, (Row & { rank: number })[]>();
    const seen = new Set<string>();
    for (const r of results) {
      pools.set(r.part, (pools.get(r.part) ?? 0) + 1);
      if (r.node_id === null || seen.has(r.node_id)) continue;
      seen.add(r.node_id);
      const key = `${r.scope_type}\u0000${r.scope_id}`;
      byScope.set(key, [...(byScope.get(key) ?? []), r as Row & { rank: number }]);
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
      .map((r) => ({ ...toItem(r), rank: r.rank }));
  }

  /**
   * Soft scope: the whole pool, visible = the turn's own scopes, or public and portable. The
   * visibility condition is SQL applied before LIMIT, in two exact steps: first over the
   * best-ranked window of the pool (as cheap as a bare MATCH); only if that window holds too
   * few visible items, over every match. Either way hidden items cannot crowd out visible ones.
   */
  async #searchSoft(q: MemorySearchQuery, limit: number): Promise<MemoryHit[]> {
    const match = memoryMatch(q.text, null);
    if (!match) return [];
    const scopes = gate(q.scopes);
    const visible = `n.node_type = 'memory' AND ${statusSql(q)}
      AND (${scopes.sql} OR (n.sensitivity = 'public' AND n.portable = 1))`;
    const windowed = await this.#db
      .prepare(
        `WITH top AS (SELECT rowid AS seq, bm25(nodes_fts, 1.0, 0.0) AS rank FROM nodes_fts
                      WHERE nodes_fts MATCH ? ORDER BY rank LIMIT ?)
         SELECT ${COLUMNS}, top.rank AS rank, (SELECT count(*) FROM top) AS pool
         FROM top CROSS JOIN nodes n ON n.seq = top.seq WHERE ${visible} ORDER BY top.rank LIMIT ?`,
      )
      .bind(match, SOFT_WINDOW, ...scopes.binds, limit)
      .all<Row & { rank: number; pool: number }>();
    const rows = windowed.results;
    // The window was the whole match set, or already holds `limit` visible items: exact.
    if (rows.length >= limit || (rows.length > 0 && (rows[0]?.pool ?? 0) < SOFT_WINDOW)) {
      return rows.map((r) => ({ ...toItem(r), rank: r.rank }));
    }
    // FTS5 yields rows in rank order here (rank MATCH + ORDER BY rank), so the join stops
    // as soon as `limit` visible rows passed the condition.
    const { results } = await this.#db
      .prepare(
        `SELECT ${COLUMNS}, nodes_fts.rank AS rank FROM nodes_fts CROSS JOIN nodes n ON n.seq = nodes_fts.rowid
         WHERE nodes_fts MATCH ? AND nodes_fts.rank MATCH 'bm25(1.0, 0.0)' AND ${visible}
         ORDER BY nodes_fts.rank LIMIT ?`,
      )
      .bind(match, ...scopes.binds, limit)
      .all<Row & { rank: number }>();
    return results.map((r) => ({ ...toItem(r), rank: r.rank }));
  }

  /**
   * A scope's active items, most important first; over several scopes, each scope's own
   * best `limit` (one range of nodes_scope_importance or nodes_scope_kind each, stopping at
   * the LIMIT) merged here. One condition over every scope would make SQLite walk each
   * scope's range into a sorter instead, reading two or three times the rows.
   */
  async listActive(q: {
    scopes: readonly ReadableScope[];
    limit: number;
    minImportance?: number;
    kinds?: readonly string[];
    authors?: readonly string[];
    closed?: boolean;
  }): Promise<MemoryItem[]> {
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
        return `SELECT * FROM (SELECT ${COLUMNS} FROM nodes n
           WHERE ${sqlOf} AND n.node_type = 'memory' AND ${statusSql(q)} AND n.importance >= ?1 ${kindSql} ${authorSql}
           ORDER BY n.importance DESC, n.updated_at DESC LIMIT ?2)`;
      })
      .join(" UNION ALL ");
    const { results } = await this.#db
      .prepare(sql)
      .bind(q.minImportance ?? 0, limit, ...kinds, ...authors, ...arms.flatMap((a) => a.binds))
      .all<Row>();
    // A scope listed twice (at different levels) gives its rows twice.
    const unique = [...new Map(results.map((r) => [r.node_id, r] as const)).values()];
    return unique
      .sort((a, b) => b.importance - a.importance || b.updated_at - a.updated_at)
      .slice(0, limit)
      .map(toItem);
  }

  /** Reinforces active items once per cause (d1-memory-decay.ts); the number reinforced. */
  async reinforce(nodeIds: readonly string[], cause: ReinforceCause, at: number): Promise<number> {
    if (nodeIds.length === 0) return 0;
    const result = await reinforceStatement(this.#db, nodeIds, cause, at).run();
    return result.meta.changes ?? 0;
  }

  async get(nodeId: string): Promise<MemoryItem | null> {
    const row = await this.#db
      .prepare(`SELECT ${COLUMNS} FROM nodes n WHERE n.node_id = ? AND n.node_type = 'memory'`)
      .bind(nodeId)
      .first<Row>();
    return row ? toItem(row) : null;
  }

  async load(nodeIds: readonly string[]): Promise<MemoryItem[]> {
    const out: MemoryItem[] = [];
    for (const ids of jsonChunks([...new Set(nodeIds)])) {
      const { results } = await this.#db
        .prepare(
          `SELECT ${COLUMNS} FROM nodes n
           WHERE n.node_id IN (SELECT value FROM json_each(?1)) AND n.node_type = 'memory'`,
        )
        .bind(ids)
        .all<Row>();
      out.push(...results.map(toItem));
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
        `SELECT ${COLUMNS} FROM nodes n
         WHERE n.scope_type = ? AND n.scope_id = ? AND n.content_hash = ? AND n.node_type = 'memory' AND n.status = 'active'
           AND ${visible.sql}
         LIMIT 1`,
      )
      .bind(scope.type, scope.id, await memoryContentHash(text), ...visible.binds)
      .first<Row>();
    return row ? toItem(row) : null;
  }

  async findBySubject(
    scope: Scope,
    subjectKey: string,
    levels: readonly Sensitivity[],
  ): Promise<MemoryItem[]> {
    const visible = gate([{ ...scope, sensitivities: levels }]);
    const { results } = await this.#db
      .prepare(
        `SELECT ${COLUMNS} FROM nodes n
         WHERE n.scope_type = ? AND n.scope_id = ? AND json_extract(n.metadata, '$.subjectKey') = ?
           AND n.node_type = 'memory' AND n.status = 'active' AND ${visible.sql}
         ORDER BY n.updated_at DESC LIMIT 20`,
      )
      .bind(scope.type, scope.id, subjectKey, ...visible.binds)
      .all<Row>();
    return results.map(toItem);
  }

  async latestSummary(scope: Scope, levels: readonly Sensitivity[]) {
    const visible = gate([{ ...scope, sensitivities: levels }]);
    const row = await this.#db
      .prepare(
        `SELECT n.node_id, n.raw_text, n.created_at FROM nodes n
         WHERE n.scope_type = ? AND n.scope_id = ? AND n.node_type = 'summary' AND n.status = 'active'
           AND ${visible.sql}
         ORDER BY n.created_at DESC LIMIT 1`,
      )
      .bind(scope.type, scope.id, ...visible.binds)
      .first<{ node_id: string; raw_text: string; created_at: number }>();
    return row ? { nodeId: row.node_id, text: row.raw_text, createdAt: row.created_at } : null;
  }

  async commit(c: MemoryCommit): Promise<Result<CommitReport, { kind: "already-applied"; runId: string }>> {
    const batch = await this.#commitStatements(c);
    if (batch.statements.length === 0) return ok({ inserted: 0, superseded: 0, archived: 0, updated: 0 });
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
      updated: changed("update"),
    });
  }

  /** Every statement of a commit, in order, each tagged with what its change count means. */
  async #commitStatements(
    c: MemoryCommit,
  ): Promise<{ statements: D1PreparedStatement[]; kinds: StatementKind[] }> {
    const writable = gate(c.writable, "nodes");
    // An insert, like every status change, lands only in a scope the commit may write.
    const inserts = c.inserts.filter((item) => includesScope(c.writable, item.scope));
    const statements: D1PreparedStatement[] = [];
    const kinds: StatementKind[] = [];
    const add = (kind: StatementKind, s: D1PreparedStatement) => {
      statements.push(s);
      kinds.push(kind);
    };
    if (c.run) add("run", this.#runStatement(c, c.run, inserts.length));
    for (const item of inserts) add("insert", await this.#insertNode(item, c.at));
    if (c.summary) add("other", await this.#summaryStatement(c.summary, c.at));
    for (const { oldId, newId, validTo } of c.supersede) {
      add("supersede", this.#closeStatement(oldId, newId, validTo ?? c.at, c.at, writable));
      add("edge", this.#supersedesEdge(oldId, newId, c.at));
    }
    for (const id of c.archive) add("archive", this.#statusStatement("archived", id, c.at, writable));
    for (const u of c.updates) {
      const update = this.#updateStatement(u, c, writable);
      if (update) add("update", update);
    }
    for (const r of c.candidates) add("other", this.#candidateStatement(r, c.at));
    if (c.restated?.length) {
      const ids = (await this.load(c.restated)).filter((m) => includesScope(c.writable, m.scope));
      const restated = ids.map((m) => m.nodeId);
      if (restated.length > 0)
        add("other", reinforceStatement(this.#db, restated, { kind: "restated", key: c.runId }, c.at));
    }
    return { statements, kinds };
  }

  /**
   * The INSERT of one item, for the admin's add, which batches it with its audit row. Like every
   * insert it is dropped by the storage-off trigger and ignored for an existing id.
   */
  insertStatement(item: NewMemory, at: number): Promise<D1PreparedStatement> {
    return this.#insertNode(item, at);
  }

  /** The run's row in memory_runs: its primary key makes a second commit of the run fail. */
  #runStatement(
    c: MemoryCommit,
    run: NonNullable<MemoryCommit["run"]>,
    inserted: number,
  ): D1PreparedStatement {
    return this.#db
      .prepare(
        "INSERT INTO memory_runs (run_id, chat_key, kind, turns, inserted, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .bind(c.runId, c.chatKey, run.kind, run.turns, inserted, c.at);
  }

  async #summaryStatement(s: SummaryNode, at: number): Promise<D1PreparedStatement> {
    return this.#db
      .prepare(
        `INSERT INTO nodes (node_id, node_type, source_type, source_id, scope_type, scope_id, kind, title, raw_text,
           retrieval_text, retrieval_tokens, metadata, provenance, importance, confidence, sensitivity,
           sensitivity_source, portable, status, content_hash, created_at, updated_at)
         VALUES (?, 'summary', 'conversation', ?, ?, ?, 'summary', NULL, ?, ?, ?, '{}', ?, 0.5, 0.8, ?, ?, 0, 'active', ?, ?, ?)
         ON CONFLICT (node_id) DO NOTHING`,
      )
      .bind(
        s.nodeId,
        s.evidence.session,
        s.scope.type,
        s.scope.id,
        s.text,
        s.text,
        indexText(s.text),
        JSON.stringify(s.evidence),
        s.sensitivity,
        s.sensitivitySource,
        await memoryContentHash(s.text),
        at,
        at,
      );
  }

  /**
   * An active or closed item of a writable scope becomes archived (forgotten: a closed item is
   * still the person's to forget); any other id, nothing.
   */
  #statusStatement(
    status: "archived",
    nodeId: string,
    at: number,
    writable: { sql: string; binds: string[] },
  ): D1PreparedStatement {
    return this.#db
      .prepare(
        `UPDATE nodes SET status = ?, updated_at = ?
         WHERE node_id = ? AND node_type = 'memory' AND status IN ('active', 'superseded') AND ${writable.sql}`,
      )
      .bind(status, at, nodeId, ...writable.binds);
  }

  /**
   * An active item of a writable scope is closed by a newer statement: superseded, valid until
   * the newer one became true (never before it itself began), and naming what closed it. Any
   * other id, nothing. Text and sensitivity stay as they were.
   */
  #closeStatement(
    oldId: string,
    newId: string,
    validTo: number,
    at: number,
    writable: { sql: string; binds: string[] },
  ): D1PreparedStatement {
    return this.#db
      .prepare(
        `UPDATE nodes SET status = 'superseded', updated_at = ?,
           valid_to = MAX(COALESCE(valid_from, created_at), ?), closed_by = ?
         WHERE node_id = ? AND node_type = 'memory' AND status = 'active' AND ${writable.sql}`,
      )
      .bind(at, validTo, newId, oldId, ...writable.binds);
  }

  /** The supersedes edge, only when both nodes exist and the old one was superseded. */
  #supersedesEdge(oldId: string, newId: string, at: number): D1PreparedStatement {
    return this.#db
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
  #updateStatement(
    u: MemoryUpdate,
    c: Pick<MemoryCommit, "at" | "chatKey">,
    writable: { sql: string; binds: string[] },
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
    return this.#db
      .prepare(
        `UPDATE nodes SET ${sets.join(", ")}, updated_at = ?
         WHERE node_id = ? AND node_type = 'memory' AND status = 'active' AND ${writable.sql}
           AND NOT EXISTS (SELECT 1 FROM chat_sessions s WHERE s.store_enabled = 0
             AND (s.chat_key = ? OR substr(?, 1, length(s.chat_key) + 1) = s.chat_key || ':'))`,
      )
      .bind(...values, c.at, u.nodeId, ...writable.binds, c.chatKey, c.chatKey);
  }

  #candidateStatement(r: CandidateRecord, at: number): D1PreparedStatement {
    return this.#db
      .prepare(
        `INSERT INTO memory_candidates (run_id, chat_key, origin, kind, text, scope_type, scope_id, sensitivity,
           sensitivity_source, importance, decision, reason, node_id, target_node_id, evidence, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        r.runId,
        r.chatKey,
        r.origin,
        r.kind,
        r.text,
        r.scope.type,
        r.scope.id,
        r.sensitivity,
        r.sensitivitySource,
        r.importance,
        r.decision,
        r.reason,
        r.nodeId,
        r.targetNodeId,
        JSON.stringify(r.evidence),
        at,
      );
  }

  async hasRun(runId: string): Promise<boolean> {
    return (
      (await this.#db.prepare("SELECT 1 AS x FROM memory_runs WHERE run_id = ?").bind(runId).first()) !== null
    );
  }

  async #insertNode(item: NewMemory, at: number): Promise<D1PreparedStatement> {
    const origin = item.evidence?.origin ?? "dream";
    return this.#db
      .prepare(
        `INSERT INTO nodes (node_id, node_type, source_type, source_id, scope_type, scope_id, kind, title, raw_text,
           retrieval_text, retrieval_tokens, metadata, provenance, importance, confidence, sensitivity,
           sensitivity_source, portable, status, content_hash, created_at, updated_at, valid_from)
         VALUES (?, 'memory', ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)
         ON CONFLICT (node_id) DO NOTHING`,
      )
      .bind(
        item.nodeId,
        SOURCE_TYPE[origin],
        item.evidence?.session ?? null,
        item.scope.type,
        item.scope.id,
        item.kind,
        item.text,
        item.text,
        indexText(item.text),
        JSON.stringify({ subjectKey: item.subjectKey, portable: item.portable }),
        JSON.stringify(item.evidence ? { type: "conversation", ...item.evidence } : {}),
        item.importance,
        item.confidence,
        item.sensitivity,
        item.sensitivitySource,
        item.portable ? 1 : 0,
        await memoryContentHash(item.text),
        at,
        at,
        item.validFrom ?? at,
      );
  }
}
