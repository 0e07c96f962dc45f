/** Memory items as admins see and change them: every change audited with the acting admin. */
import { D1MemoryAdmin, type MemoryEdit } from "../../adapters/d1/d1-memory-admin";
import { D1SummaryAdmin } from "../../adapters/d1/d1-summary-admin";
import { credentialErasure, heldCredentials, heldSummaries } from "../../domain/memory/held-credentials";
import type { AdminRequest } from "./admin-request";
import { memoryPlacementService } from "./memory-placement-service";

export type {
  CandidateFilter,
  CandidateRow,
  MemoryEdit,
  MemoryFilter,
} from "../../adapters/d1/d1-memory-admin";

export function memoryService(env: Env, who: AdminRequest) {
  const admin = new D1MemoryAdmin(env.DB);
  const summaries = new D1SummaryAdmin(env.DB);
  const act = () => ({ actor: who.actor, at: Date.now(), via: who.via });
  const placement = memoryPlacementService(env, who);
  return {
    add: placement.add,
    move: placement.move,
    list: admin.list.bind(admin),
    candidates: admin.candidates.bind(admin),
    get: admin.get.bind(admin),
    edit: (nodeId: string, change: MemoryEdit) => admin.edit(nodeId, change, act()),
    changeStatus: (nodeId: string, action: "archive" | "restore") =>
      admin.changeStatus(nodeId, action, act()),
    done: (nodeId: string) => admin.done(nodeId, act()),
    forget: (nodeId: string) => admin.forget(nodeId, act()),
    /**
     * A page of every memory item, then of every chat summary, and those of it that hold a
     * credential, shown masked: one listing, the summaries after the items.
     */
    heldCredentials: async (p: { limit: number; offset: number }) => {
      const memory = await admin.list(p);
      const room = p.limit - memory.items.length;
      const from = Math.max(0, p.offset - memory.total);
      const sums = await summaries.page({ limit: Math.max(room, 0), offset: from });
      const scanned = memory.items.length + (room > 0 ? sums.items.length : 0);
      const total = memory.total + sums.total;
      const end = p.offset + scanned;
      return {
        scanned,
        total,
        nextOffset: end < total && scanned > 0 ? end : null,
        held: [...heldCredentials(memory.items), ...(room > 0 ? heldSummaries(sums.items) : [])],
      };
    },
    /**
     * Erases the items and summaries, each as `forget` does, when every one holds a credential;
     * else nothing.
     */
    eraseCredentials: async (ids: readonly string[]) => {
      const items = (await Promise.all(ids.map((id) => admin.get(id)))).flatMap((i) => i ?? []);
      const found = await summaries.get(ids);
      const erasure = credentialErasure(ids, [...items, ...found]);
      if (!erasure.ok) return erasure;
      const isSummary = new Set(found.map((s) => s.nodeId));
      for (const id of erasure.value)
        await (isSummary.has(id) ? summaries.erase(id, act()) : admin.forget(id, act()));
      return erasure;
    },
  };
}

export type MemoryService = ReturnType<typeof memoryService>;
