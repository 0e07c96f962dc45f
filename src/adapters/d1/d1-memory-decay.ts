/**
 * The D1 side of decay and reinforcement (docs/memory.md#decay-and-reinforcement, migration 0420):
 * the columns an item's decay is read from, the reinforcement UPDATE, and the expiry of tasks.
 * Nothing here reads or widens who may see an item: reinforcement touches only ids a gated read
 * returned, and expiry only archives.
 */

import type { MemoryDecaySettings } from "../../domain/config/memory-decay-settings";
import { type ExpiryCause, expiryOf, type ReinforceCause } from "../../domain/memory/decay";
import type { ItemDecay } from "../../domain/memory/memory";
import { insertAuditRowIfChanged } from "./d1-audit-log";

export const DECAY_COLUMNS = "n.reinforced_at, n.reinforce_count, n.keep_forever, n.due_at, n.expired_at";

export type DecayRow = {
  reinforced_at: number | null;
  reinforce_count: number | null;
  keep_forever: number | null;
  due_at: number | null;
  expired_at: number | null;
};

export function decayOf(r: DecayRow): ItemDecay {
  return {
    reinforcedAt: r.reinforced_at ?? null,
    reinforceCount: r.reinforce_count ?? 0,
    keepForever: r.keep_forever === 1,
    dueAt: r.due_at ?? null,
    expiredAt: r.expired_at ?? null,
  };
}

/**
 * One UPDATE: active memory items among `nodeIds` get `reinforced_at` (never moved back), one more
 * count and the cause's key — unless that key already reinforced them, so a retried turn or a
 * repeated restatement counts once. `updated_at` stays: reinforcement is not an edit.
 */
export function reinforceStatement(
  db: D1Database,
  nodeIds: readonly string[],
  cause: ReinforceCause,
  at: number,
): D1PreparedStatement {
  const key = `${cause.kind}:${cause.key}`;
  return db
    .prepare(
      `UPDATE nodes SET reinforced_at = MAX(COALESCE(reinforced_at, 0), ?1),
         reinforce_count = reinforce_count + 1, reinforced_by = ?2
       WHERE node_id IN (SELECT value FROM json_each(?3)) AND node_type = 'memory' AND status = 'active'
         AND reinforced_by IS NOT ?2`,
    )
    .bind(at, key, JSON.stringify([...new Set(nodeIds)].slice(0, 100)));
}

export type ExpiredTask = {
  readonly nodeId: string;
  readonly chatKey: string | null;
  readonly cause: ExpiryCause;
};

type TaskRow = DecayRow & {
  node_id: string;
  kind: string;
  created_at: number;
  scope_type: string;
  scope_id: string;
};

/** Active tasks that expire at `now` (expiryOf), at most `limit`. */
export async function dueTasks(
  db: D1Database,
  now: number,
  cfg: MemoryDecaySettings,
  limit: number,
): Promise<ExpiredTask[]> {
  // The same rule as expiryOf, in SQL so that the LIMIT counts only tasks that expire; each row
  // is checked again by expiryOf below.
  const lifetime = cfg.taskLifetimeDays > 0 ? now - cfg.taskLifetimeDays * 86_400_000 : null;
  const { results } = await db
    .prepare(
      `SELECT n.node_id, n.kind, n.created_at, n.scope_type, n.scope_id, ${DECAY_COLUMNS} FROM nodes n
       WHERE n.node_type = 'memory' AND n.kind = 'task' AND n.status = 'active' AND n.keep_forever = 0
         AND ((n.due_at IS NOT NULL AND n.due_at <= ?1)
           OR (n.due_at IS NULL AND ?2 IS NOT NULL AND MAX(n.created_at, COALESCE(n.reinforced_at, 0)) <= ?2))
       LIMIT ?3`,
    )
    .bind(now, lifetime, limit)
    .all<TaskRow>();
  const out: ExpiredTask[] = [];
  for (const r of results) {
    const cause = expiryOf(
      { kind: "task", status: "active", createdAt: r.created_at, decay: decayOf(r) },
      now,
      cfg,
    );
    if (cause) out.push({ nodeId: r.node_id, chatKey: r.scope_type === "chat" ? r.scope_id : null, cause });
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Archives an active task as expired — status `archived`, `expired_at` = when — with its audit
 * row (`memory.expire`, the cause) kept only if the update changed the row: a task changed in
 * between is left alone and leaves no record. Never deletes. True when it expired.
 */
export async function expireTask(
  db: D1Database,
  task: ExpiredTask,
  act: { readonly actor: string; readonly at: number; readonly via: string },
): Promise<boolean> {
  const [update] = await db.batch([
    db
      .prepare(
        `UPDATE nodes SET status = 'archived', expired_at = ?1, updated_at = ?1
         WHERE node_id = ?2 AND node_type = 'memory' AND kind = 'task' AND status = 'active'`,
      )
      .bind(act.at, task.nodeId),
    insertAuditRowIfChanged(db, {
      dedupeKey: `memory.expire:${task.nodeId}:${act.at}`,
      at: act.at,
      actor: act.actor,
      action: "memory.expire",
      chatKey: task.chatKey,
      target: `memory:${task.nodeId}`,
      detail: { via: act.via, cause: task.cause },
    }),
  ]);
  return (update?.meta.changes ?? 0) > 0;
}
