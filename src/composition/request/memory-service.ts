/** Memory items as admins see and change them: every change audited with the acting admin. */
import { D1MemoryAdmin, type MemoryEdit } from "../../adapters/d1/d1-memory-admin";
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
  };
}

export type MemoryService = ReturnType<typeof memoryService>;
