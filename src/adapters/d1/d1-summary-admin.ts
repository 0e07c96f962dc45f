/**
 * Summary nodes as the owner's credential sweep reads and erases them
 * (docs/decisions/0980-memory-kept-before-a-detector-read-it.md): the daily summaries and the
 * conversation summaries dreaming writes, each a `nodes` row of node_type `summary` in its chat's
 * scope. A summary was read by the detectors of the day it was written; one written before a
 * detector learned a wording keeps the value, and a chat's context and its sibling chats read it.
 * Erased as a memory item is: the row with FTS5 secure-delete, its edges, and its day's record, so
 * that the daily sweep may write the day again from the log as it is now.
 */
import { type AdminAct, adminActRow } from "./d1-audit-log";
import { nodeErasure } from "./d1-chunked-deletes";
import { countedPage } from "./d1-counted-page";

export type SummaryNode = {
  readonly nodeId: string;
  /** `chat:<chat key>`. */
  readonly scope: string;
  readonly status: string;
  readonly text: string;
};

type Row = { node_id: string; scope_type: string; scope_id: string; status: string; raw_text: string };

const node = (r: Row): SummaryNode => ({
  nodeId: r.node_id,
  scope: `${r.scope_type}:${r.scope_id}`,
  status: r.status,
  text: r.raw_text,
});

const COLUMNS = "node_id, scope_type, scope_id, status, raw_text";

export class D1SummaryAdmin {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  /** A page of every summary, any status, newest first, and how many there are. */
  async page(p: { limit: number; offset: number }): Promise<{ items: SummaryNode[]; total: number }> {
    return countedPage(
      this.#db,
      this.#db
        .prepare(
          `SELECT ${COLUMNS} FROM nodes WHERE node_type = 'summary' ORDER BY created_at DESC, seq DESC LIMIT ?1 OFFSET ?2`,
        )
        .bind(p.limit, p.offset),
      this.#db.prepare("SELECT count(*) AS total FROM nodes WHERE node_type = 'summary'"),
      node,
    );
  }

  /** The summaries of these ids; ids of no summary are left out. */
  async get(ids: readonly string[]): Promise<SummaryNode[]> {
    if (ids.length === 0) return [];
    const { results } = await this.#db
      .prepare(
        `SELECT ${COLUMNS} FROM nodes WHERE node_type = 'summary' AND node_id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(JSON.stringify(ids))
      .all<Row>();
    return results.map(node);
  }

  /** Erases one summary with its edges and its day's record; the audit row names the id only. */
  async erase(nodeId: string, act: AdminAct): Promise<boolean> {
    const [found] = await this.get([nodeId]);
    if (!found) return false;
    await this.#db.batch([
      ...nodeErasure(this.#db, nodeId, "summary"),
      this.#db.prepare("DELETE FROM summary_days WHERE node_id = ?1").bind(nodeId),
      adminActRow(this.#db, act, {
        action: "summary.forget",
        target: `summary:${nodeId}`,
        chatKey: found.scope.startsWith("chat:") ? found.scope.slice(5) : null,
      }),
    ]);
    return true;
  }
}
