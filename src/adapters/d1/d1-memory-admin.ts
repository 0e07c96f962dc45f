/**
 * What the admin API does to memory items beyond the turn's own reads and commits: list and
 * filter every item, edit one, archive, restore and forget it, read the dreaming candidates.
 * Items are mapped by the memory store itself (`load`), so both agree on what an item is.
 * Every change writes its audit row in the same batch: no change without its record.
 */
import type { MemoryItem, MemoryStatus, Sensitivity } from "../../domain/memory/memory";
import type { MemoryKind, Scope } from "../../domain/memory/scope";
import { indexText } from "../../domain/text/search-tokens";
import { type AdminAct, adminActRow } from "./d1-audit-log";
import { nodeErasure } from "./d1-chunked-deletes";
import { expireTask } from "./d1-memory-decay";
import { D1MemoryStore } from "./d1-memory-store";
import { memoryContentHash } from "./memory-content-hash";

export type MemoryFilter = {
  readonly scope?: Scope;
  readonly kind?: MemoryKind;
  readonly sensitivity?: Sensitivity;
  readonly status?: MemoryStatus;
  /** Items of this chat's scope or written from it (lanes included). */
  readonly chat?: string;
  /** Items of this person's scope or whose evidence names them. */
  readonly person?: string;
  /** Substring of the text, case-insensitive. */
  readonly text?: string;
  readonly limit: number;
  readonly offset: number;
};

export type MemoryEdit = {
  readonly text?: string;
  readonly kind?: MemoryKind;
  readonly importance?: number;
  readonly sensitivity?: Sensitivity;
  readonly portable?: boolean;
  /** Decay (docs/memory.md#decay-and-reinforcement): no decay and no expiry while true. */
  readonly keepForever?: boolean;
  /** A task's due time (epoch ms); null clears it. */
  readonly dueAt?: number | null;
};

/** Who changes an item, when, and through which face (`via` in the audit row; "api" if unsaid). */
export type { AdminAct } from "./d1-audit-log";

export type CandidateFilter = {
  readonly chat?: string;
  readonly decision?: string;
  readonly run?: string;
  readonly limit: number;
  readonly offset: number;
};

export type CandidateRow = {
  id: number;
  runId: string;
  chatKey: string;
  origin: string;
  kind: string;
  text: string;
  scope: string;
  sensitivity: string;
  sensitivitySource: string;
  importance: number | null;
  decision: string;
  reason: string | null;
  nodeId: string | null;
  targetNodeId: string | null;
  createdAt: number;
};

/** Which status change an action is, and the status it starts from. */
const TRANSITIONS = {
  archive: { from: "active", to: "archived" },
  restore: { from: "archived", to: "active" },
} as const;

export type StatusChange = { ok: true; item: MemoryItem } | { ok: false; reason: "not-found" | "status" };

export class D1MemoryAdmin {
  readonly #db: D1Database;
  readonly #store: D1MemoryStore;
  constructor(db: D1Database) {
    this.#db = db;
    this.#store = new D1MemoryStore(db);
  }

  async list(f: MemoryFilter): Promise<{ items: MemoryItem[]; total: number }> {
    const where = ["n.node_type = 'memory'"];
    const binds: (string | number)[] = [];
    const bind = (value: string | number) => {
      binds.push(value);
      return `?${binds.length}`;
    };
    if (f.scope) where.push(`n.scope_type = ${bind(f.scope.type)} AND n.scope_id = ${bind(f.scope.id)}`);
    if (f.kind) where.push(`n.kind = ${bind(f.kind)}`);
    if (f.sensitivity) where.push(`n.sensitivity = ${bind(f.sensitivity)}`);
    if (f.status) where.push(`n.status = ${bind(f.status)}`);
    if (f.chat) {
      const chat = bind(f.chat);
      where.push(`((n.scope_type = 'chat' AND n.scope_id = ${chat})
        OR n.provenance ->> '$.session' = ${chat} OR substr(n.provenance ->> '$.session', 1, length(${chat}) + 1) = ${chat} || ':')`);
    }
    if (f.person) {
      const person = bind(f.person);
      where.push(
        `((n.scope_type = 'person' AND n.scope_id = ${person}) OR n.provenance ->> '$.person' = ${person})`,
      );
    }
    if (f.text) where.push(`instr(lower(n.raw_text), lower(${bind(f.text)})) > 0`);
    const condition = where.join(" AND ");
    const [page, count] = await this.#db.batch<{ node_id: string } | { total: number }>([
      this.#db
        .prepare(
          `SELECT n.node_id FROM nodes n WHERE ${condition}
           ORDER BY n.updated_at DESC, n.seq DESC LIMIT ${bind(f.limit)} OFFSET ${bind(f.offset)}`,
        )
        .bind(...binds),
      this.#db
        .prepare(`SELECT count(*) AS total FROM nodes n WHERE ${condition}`)
        .bind(...binds.slice(0, -2)),
    ]);
    const ids = ((page?.results ?? []) as { node_id: string }[]).map((r) => r.node_id);
    const byId = new Map((await this.#store.load(ids)).map((item) => [item.nodeId, item]));
    const items = ids.flatMap((id) => byId.get(id) ?? []);
    return { items, total: (count?.results[0] as { total: number } | undefined)?.total ?? 0 };
  }

  get(nodeId: string): Promise<MemoryItem | null> {
    return this.#store.load([nodeId]).then((items) => items[0] ?? null);
  }

  /** Applies an edit and its audit row at once; null when there is no such memory item. */
  async edit(nodeId: string, change: MemoryEdit, act: AdminAct): Promise<MemoryItem | null> {
    const before = await this.get(nodeId);
    if (!before) return null;
    const sets: string[] = ["updated_at = ?1"];
    const binds: (string | number | null)[] = [act.at];
    const set = (column: string, value: string | number | null) => {
      binds.push(value);
      sets.push(`${column} = ?${binds.length}`);
    };
    if (change.text !== undefined && change.text !== before.text) {
      set("raw_text", change.text);
      set("retrieval_text", change.text);
      set("retrieval_tokens", indexText(change.text));
      // A new hash: the embedding sweep embeds the new text and re-syncs the vector.
      set("content_hash", await memoryContentHash(change.text));
    }
    if (change.kind !== undefined) set("kind", change.kind);
    if (change.importance !== undefined) set("importance", change.importance);
    if (change.sensitivity !== undefined) {
      set("sensitivity", change.sensitivity);
      set("sensitivity_source", "explicit");
    }
    if (change.portable !== undefined) set("portable", change.portable ? 1 : 0);
    if (change.keepForever !== undefined) set("keep_forever", change.keepForever ? 1 : 0);
    if (change.dueAt !== undefined) set("due_at", change.dueAt);
    binds.push(nodeId);
    const fields = Object.keys(change).sort();
    await this.#db.batch([
      this.#db
        .prepare(
          `UPDATE nodes SET ${sets.join(", ")} WHERE node_id = ?${binds.length} AND node_type = 'memory'`,
        )
        .bind(...binds),
      this.#audit(act, "memory.edit", nodeId, chatOf(before), {
        fields: fields.join(", "),
        ...(change.keepForever !== undefined ? { keepForever: change.keepForever } : {}),
        ...(change.dueAt !== undefined ? { dueAt: change.dueAt } : {}),
      }),
    ]);
    return this.get(nodeId);
  }

  async changeStatus(nodeId: string, action: keyof typeof TRANSITIONS, act: AdminAct): Promise<StatusChange> {
    const before = await this.get(nodeId);
    if (!before) return { ok: false, reason: "not-found" };
    const { from, to } = TRANSITIONS[action];
    if (before.status !== from) return { ok: false, reason: "status" };
    const [update] = await this.#db.batch([
      this.#db
        .prepare(
          "UPDATE nodes SET status = ?1, updated_at = ?2 WHERE node_id = ?3 AND node_type = 'memory' AND status = ?4",
        )
        .bind(to, act.at, nodeId, from),
      this.#audit(act, `memory.${action}`, nodeId, chatOf(before), { from, to }),
    ]);
    if (!update?.meta.changes) return { ok: false, reason: "status" };
    const after = await this.get(nodeId);
    return after ? { ok: true, item: after } : { ok: false, reason: "not-found" };
  }

  /** Marks an active task done: it expires now (`memory.expire`, cause `done`), never deleted. */
  async done(nodeId: string, act: AdminAct): Promise<StatusChange> {
    const before = await this.get(nodeId);
    if (!before) return { ok: false, reason: "not-found" };
    if (before.kind !== "task" || before.status !== "active") return { ok: false, reason: "status" };
    const task = { nodeId, chatKey: chatOf(before), cause: "done" as const };
    if (!(await expireTask(this.#db, task, { ...act, via: act.via ?? "api" })))
      return { ok: false, reason: "status" };
    const after = await this.get(nodeId);
    return after ? { ok: true, item: after } : { ok: false, reason: "not-found" };
  }

  /**
   * Deletes the item, its edges and the candidate rows that hold a copy of its text. The
   * audit row names the id only; the vector is removed by the sweep that follows deletions.
   */
  async forget(nodeId: string, act: AdminAct): Promise<boolean> {
    const before = await this.get(nodeId);
    if (!before) return false;
    // Erased from the full-text index's pages too, not only from its rows (d1-fts-erase.ts).
    await this.#db.batch([
      ...nodeErasure(this.#db, nodeId, "memory"),
      // Its insert's row, and the rows of any merge, close or archive that named it as their target.
      this.#db
        .prepare("DELETE FROM memory_candidates WHERE node_id = ?1 OR target_node_id = ?1")
        .bind(nodeId),
      this.#audit(act, "memory.forget", nodeId, chatOf(before), {
        kind: before.kind,
        scope: `${before.scope.type}`,
      }),
    ]);
    return true;
  }

  async candidates(f: CandidateFilter): Promise<{ candidates: CandidateRow[]; total: number }> {
    const where: string[] = ["1"];
    const binds: (string | number)[] = [];
    const bind = (value: string | number) => {
      binds.push(value);
      return `?${binds.length}`;
    };
    if (f.chat) where.push(`chat_key = ${bind(f.chat)}`);
    if (f.decision) where.push(`decision = ${bind(f.decision)}`);
    if (f.run) where.push(`run_id = ${bind(f.run)}`);
    const condition = where.join(" AND ");
    const [page, count] = await this.#db.batch<CandidateRow | { total: number }>([
      this.#db
        .prepare(
          `SELECT id, run_id AS runId, chat_key AS chatKey, origin, kind, text, scope_type || ':' || scope_id AS scope,
             sensitivity, sensitivity_source AS sensitivitySource, importance, decision, reason, node_id AS nodeId,
             target_node_id AS targetNodeId, created_at AS createdAt
           FROM memory_candidates WHERE ${condition} ORDER BY id DESC LIMIT ${bind(f.limit)} OFFSET ${bind(f.offset)}`,
        )
        .bind(...binds),
      this.#db
        .prepare(`SELECT count(*) AS total FROM memory_candidates WHERE ${condition}`)
        .bind(...binds.slice(0, -2)),
    ]);
    return {
      candidates: (page?.results ?? []) as CandidateRow[],
      total: (count?.results[0] as { total: number } | undefined)?.total ?? 0,
    };
  }

  #audit(
    act: AdminAct,
    action: string,
    nodeId: string,
    chatKey: string | null,
    detail: Record<string, unknown>,
  ) {
    return adminActRow(this.#db, act, { action, target: `memory:${nodeId}`, chatKey, detail });
  }
}

/** The chat an item belongs to, for the audit row: its chat scope, else where it was said. */
function chatOf(item: MemoryItem): string | null {
  if (item.scope.type === "chat") return item.scope.id;
  const session = item.evidence?.session;
  if (!session) return null;
  const parts = session.split(":");
  return parts.length >= 3 ? parts.slice(0, 3).join(":") : session;
}
