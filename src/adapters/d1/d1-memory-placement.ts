/**
 * An admin's hand placement of memory items (docs/memory.md#admins-add-and-move-items): add an
 * item to a scope, move one to another scope. The rules (which scopes, when a confirmation is
 * needed) are the domain's (`admin-placement.ts`); here each write and its audit row are one
 * batch, and the row is kept only when the write changed something, so the log never records an
 * add the storage-off trigger dropped or a move whose item changed in between.
 */
import type { MemoryItem, NewMemory } from "../../domain/memory/memory";
import { type Scope, scopeKey } from "../../domain/memory/scope";
import { insertAuditRowIfChanged } from "./d1-audit-log";
import { D1MemoryStore } from "./d1-memory-store";

export type PlacementAct = { readonly actor: string; readonly at: number; readonly via: string };

export type Added =
  | { readonly ok: true; readonly item: MemoryItem }
  | { readonly ok: false; readonly reason: "exists"; readonly item: MemoryItem }
  | { readonly ok: false; readonly reason: "not-stored" };

export type Moved =
  | { readonly ok: true; readonly item: MemoryItem; readonly from: Scope }
  | { readonly ok: false; readonly reason: "not-found" | "changed" };

export class D1MemoryPlacement {
  readonly #db: D1Database;
  readonly #store: D1MemoryStore;
  constructor(db: D1Database) {
    this.#db = db;
    this.#store = new D1MemoryStore(db);
  }

  get(nodeId: string): Promise<MemoryItem | null> {
    return this.#store.get(nodeId);
  }

  async add(item: NewMemory, act: PlacementAct, confirmedShared: boolean): Promise<Added> {
    const existing = await this.#store.get(item.nodeId);
    if (existing) return { ok: false, reason: "exists", item: existing };
    const [insert] = await this.#db.batch([
      await this.#store.insertStatement(item, act.at),
      this.#audit(act, "memory.add", item.nodeId, item.scope, {
        to: scopeKey(item.scope),
        kind: item.kind,
        sensitivity: item.sensitivity,
        confirmedShared,
      }),
    ]);
    const added = insert?.meta.changes ? await this.#store.get(item.nodeId) : null;
    return added ? { ok: true, item: added } : { ok: false, reason: "not-stored" };
  }

  /** Moves an active item from `before.scope` to `to`; refused when it changed since it was read. */
  async move(before: MemoryItem, to: Scope, act: PlacementAct, confirmedShared: boolean): Promise<Moved> {
    const [update] = await this.#db.batch([
      this.#db
        .prepare(
          `UPDATE nodes SET scope_type = ?1, scope_id = ?2, updated_at = ?3
           WHERE node_id = ?4 AND node_type = 'memory' AND status = 'active' AND scope_type = ?5 AND scope_id = ?6
             AND sensitivity = ?7`,
        )
        .bind(to.type, to.id, act.at, before.nodeId, before.scope.type, before.scope.id, before.sensitivity),
      this.#audit(act, "memory.move", before.nodeId, to, {
        from: scopeKey(before.scope),
        to: scopeKey(to),
        sensitivity: before.sensitivity,
        confirmedShared,
      }),
    ]);
    if (!update?.meta.changes) return { ok: false, reason: "changed" };
    const item = await this.#store.get(before.nodeId);
    return item ? { ok: true, item, from: before.scope } : { ok: false, reason: "not-found" };
  }

  #audit(
    act: PlacementAct,
    action: string,
    nodeId: string,
    scope: Scope,
    detail: Record<string, string | boolean>,
  ) {
    return insertAuditRowIfChanged(this.#db, {
      dedupeKey: `${action}:${nodeId}:${act.at}:${crypto.randomUUID()}`,
      at: act.at,
      actor: act.actor,
      action,
      chatKey: scope.type === "chat" ? scope.id : null,
      target: `memory:${nodeId}`,
      detail: { via: act.via, ...detail },
    });
  }
}
