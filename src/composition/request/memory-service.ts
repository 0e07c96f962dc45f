/** Memory items as admins see and change them: every change audited with the acting admin. */
import { D1MemoryAdmin, type MemoryEdit } from "../../adapters/d1/d1-memory-admin";
import { credentialErasure, heldCredentials } from "../../domain/memory/held-credentials";
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
    /** A page of every memory item, and those of it that hold a credential, shown masked. */
    heldCredentials: async (p: { limit: number; offset: number }) => {
      const { items, total } = await admin.list(p);
      const end = p.offset + items.length;
      return {
        scanned: items.length,
        total,
        nextOffset: end < total ? end : null,
        held: heldCredentials(items),
      };
    },
    /** Erases the items, each as `forget` does, when every one holds a credential; else nothing. */
    eraseCredentials: async (ids: readonly string[]) => {
      const items = (await Promise.all(ids.map((id) => admin.get(id)))).flatMap((i) => i ?? []);
      const erasure = credentialErasure(ids, items);
      if (!erasure.ok) return erasure;
      for (const id of erasure.value) await admin.forget(id, act());
      return erasure;
    },
  };
}

export type MemoryService = ReturnType<typeof memoryService>;
