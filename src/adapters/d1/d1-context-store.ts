/** ContextStore over D1 `nodes`: the authority the pipeline re-checks every candidate against. */
import type { ContextNode, NodeType } from "../../domain/retrieval/context-node";
import type { ContextStore, StoreFilter } from "../../domain/retrieval/ports";
import { filterSql } from "./d1-filter";
import { jsonChunks } from "./d1-json-chunks";
import { kbCountsWhere } from "./d1-kb-counts-where";
import { NODE_FIELDS, type NodeRow, nodeFields, toNode } from "./d1-node-rows";
import { splitScopes } from "./d1-scope-split";

/** Sets with more units than this report `tokens: Infinity` instead of summing their text. */
const SUM_TOKENS_UP_TO = 2000;

export class D1ContextStore implements ContextStore {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async load(nodeIds: readonly string[]): Promise<ContextNode[]> {
    const unique = [...new Set(nodeIds)];
    if (unique.length === 0) return [];
    const out: ContextNode[] = [];
    for (const ids of jsonChunks(unique)) {
      const { results } = await this.#db
        .prepare(`SELECT ${NODE_FIELDS} FROM nodes WHERE node_id IN (SELECT value FROM json_each(?1))`)
        .bind(ids)
        .all<NodeRow>();
      out.push(...results.map(toNode));
    }
    return out;
  }

  async size(filter: StoreFilter): Promise<{ count: number; tokens: number }> {
    const { collections, others } = splitScopes(filter.scopes);
    if (others.length === 0) return this.#collectionSize(collections, filter);
    const f = filterSql(filter, 1);
    const counted = await this.#db
      .prepare(`SELECT count(*) AS count FROM nodes n WHERE ${f.where}`)
      .bind(...f.params)
      .first<{ count: number }>();
    const count = counted?.count ?? 0;
    // Summing text lengths reads every row; a set this large is never read whole anyway.
    if (count > SUM_TOKENS_UP_TO) return { count, tokens: Number.POSITIVE_INFINITY };
    const row = await this.#db
      .prepare(`SELECT coalesce(sum(length(n.raw_text)), 0) AS chars FROM nodes n WHERE ${f.where}`)
      .bind(...f.params)
      .first<{ chars: number }>();
    // Characters over-estimate Latin tokens and match CJK ones: pessimistic, as budgets should be.
    return { count, tokens: row?.chars ?? 0 };
  }

  /**
   * Collections only: from kb_counts (migration 0210), one indexed read of a few rows, where
   * counting from nodes visits every passage row. Same answer as the count below
   * (docs/decisions/0018-collection-sizes-kept-in-kb-counts.md).
   */
  async #collectionSize(scopeIds: readonly string[], filter: StoreFilter) {
    const row = await this.#db
      .prepare(
        `SELECT coalesce(sum(nodes), 0) AS count, coalesce(sum(chars), 0) AS chars FROM kb_counts
         WHERE ${kbCountsWhere({ scopes: "?1", types: "?2", collections: "?3" })}`,
      )
      .bind(
        JSON.stringify(scopeIds),
        JSON.stringify(filter.nodeTypes),
        filter.collections ? JSON.stringify(filter.collections) : null,
      )
      .first<{ count: number; chars: number }>();
    const count = row?.count ?? 0;
    return { count, tokens: count > SUM_TOKENS_UP_TO ? Number.POSITIVE_INFINITY : (row?.chars ?? 0) };
  }

  async readAll(filter: StoreFilter, limit: number): Promise<ContextNode[]> {
    const f = filterSql(filter, 2);
    const { results } = await this.#db
      .prepare(`SELECT ${nodeFields("n")} FROM nodes n WHERE ${f.where} ORDER BY n.root_id, n.seq LIMIT ?1`)
      .bind(limit, ...f.params)
      .all<NodeRow>();
    return results.map(toNode);
  }

  async childrenOf(
    parentIds: readonly string[],
    nodeTypes: readonly NodeType[],
  ): Promise<Map<string, ContextNode[]>> {
    const out = new Map<string, ContextNode[]>();
    if (parentIds.length === 0) return out;
    const [ids] = jsonChunks([...new Set(parentIds)]);
    const { results } = await this.#db
      .prepare(
        `SELECT ${NODE_FIELDS} FROM nodes WHERE parent_id IN (SELECT value FROM json_each(?1)) AND status = 'active'
           AND node_type IN (SELECT value FROM json_each(?2)) ORDER BY parent_id, position, seq LIMIT 5000`,
      )
      .bind(ids, JSON.stringify(nodeTypes))
      .all<NodeRow>();
    for (const node of results.map(toNode)) {
      const key = node.parentId ?? "";
      out.set(key, [...(out.get(key) ?? []), node]);
    }
    return out;
  }

  async children(nodeId: string, limit: number): Promise<ContextNode[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT ${NODE_FIELDS} FROM nodes WHERE parent_id = ?1 AND status = 'active' ORDER BY position, seq LIMIT ?2`,
      )
      .bind(nodeId, limit)
      .all<NodeRow>();
    return results.map(toNode);
  }

  async neighbours(nodeIds: readonly string[], radius: number): Promise<ContextNode[]> {
    if (nodeIds.length === 0 || radius <= 0) return [];
    const [ids] = jsonChunks([...new Set(nodeIds)]);
    const { results } = await this.#db
      .prepare(
        `SELECT DISTINCT ${nodeFields("s")} FROM nodes h JOIN nodes s ON s.parent_id = h.parent_id
         WHERE h.node_id IN (SELECT value FROM json_each(?1)) AND s.node_id != h.node_id
           AND s.position BETWEEN h.position - ?2 AND h.position + ?2
           AND s.status = 'active' AND s.node_type = h.node_type
           AND s.scope_type = h.scope_type AND s.scope_id = h.scope_id`,
      )
      .bind(ids, radius)
      .all<NodeRow>();
    return results.map(toNode);
  }

  async ancestors(nodeId: string): Promise<ContextNode[]> {
    const { results } = await this.#db
      .prepare(
        `WITH RECURSIVE up(id, depth) AS (
           SELECT parent_id, 1 FROM nodes WHERE node_id = ?1
           UNION ALL SELECT n.parent_id, up.depth + 1 FROM nodes n JOIN up ON n.node_id = up.id WHERE up.depth < 32
         )
         SELECT ${nodeFields("n")} FROM up JOIN nodes n ON n.node_id = up.id ORDER BY up.depth`,
      )
      .bind(nodeId)
      .all<NodeRow>();
    return results.map(toNode);
  }
}
