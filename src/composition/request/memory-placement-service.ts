/**
 * An admin adds a memory item to any scope or moves one to another scope — the one service the
 * API (`POST /api/memory`, `POST /api/memory/:id/move`) and the Memory page's forms share
 * (docs/memory.md#admins-add-and-move-items). A private or secret item goes into a shared scope
 * only with `confirmShared`, and the audit row records that it was confirmed.
 */
import { D1MemoryPlacement } from "../../adapters/d1/d1-memory-placement";
import { type DomainError, err, ok, type Result } from "../../domain/kernel/result";
import {
  type AdminAddition,
  adminItem,
  placeableScopeProblem,
  placement,
} from "../../domain/memory/admin-placement";
import type { MemoryItem } from "../../domain/memory/memory";
import { type Scope, sameScope, scopeKey } from "../../domain/memory/scope";
import type { AdminRequest } from "./admin-request";

export type Placed = { readonly item: MemoryItem; readonly confirmedShared: boolean };

export function memoryPlacementService(env: Env, who: AdminRequest) {
  const placer = new D1MemoryPlacement(env.DB);
  const act = () => ({ actor: who.actor, at: Date.now(), via: who.via });
  return {
    async add(a: AdminAddition & { confirmShared: boolean }): Promise<Result<Placed, DomainError>> {
      const problem = placeableScopeProblem(a.scope);
      if (problem) return err({ kind: "invalid", field: "scope", reason: problem });
      const allowed = placement(a.sensitivity, a.scope, a.confirmShared);
      if (!allowed.ok) return allowed;
      const now = act();
      const added = await placer.add(adminItem(a, now.at), now, allowed.value.confirmedShared);
      if (added.ok) return ok({ item: added.item, confirmedShared: allowed.value.confirmedShared });
      return err({
        kind: "conflict",
        reason:
          added.reason === "exists"
            ? `${scopeKey(a.scope)} already holds this text as ${added.item.nodeId}; nothing was added`
            : `storage is off for ${a.scope.id}: nothing was added`,
      });
    },
    async move(nodeId: string, to: Scope, confirmShared: boolean): Promise<Result<Placed, DomainError>> {
      const problem = placeableScopeProblem(to);
      if (problem) return err({ kind: "invalid", field: "scope", reason: problem });
      const before = await placer.get(nodeId);
      if (!before) return err({ kind: "not-found", what: `memory item ${nodeId}` });
      if (before.status !== "active")
        return err({ kind: "invalid", field: "status", reason: "only an active item can be moved" });
      if (sameScope(before.scope, to))
        return err({ kind: "invalid", field: "scope", reason: `the item is already in ${scopeKey(to)}` });
      const allowed = placement(before.sensitivity, to, confirmShared);
      if (!allowed.ok) return allowed;
      const moved = await placer.move(before, to, act(), allowed.value.confirmedShared);
      if (moved.ok) return ok({ item: moved.item, confirmedShared: allowed.value.confirmedShared });
      return err({
        kind: "conflict",
        reason: "the item changed while it was being moved; nothing was moved",
      });
    },
  };
}

export type MemoryPlacementService = ReturnType<typeof memoryPlacementService>;
