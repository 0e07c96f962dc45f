/** Memory items as admins see and change them: every change audited with the acting admin. */
import { D1CandidateTexts } from "../../adapters/d1/d1-candidate-texts";
import { D1MemoryAdmin, type MemoryEdit } from "../../adapters/d1/d1-memory-admin";
import { D1SummaryAdmin } from "../../adapters/d1/d1-summary-admin";
import { chainedPage, type PageAsk } from "../../domain/kernel/chained-pages";
import { credentialErasure, heldCredentials, heldTexts } from "../../domain/memory/held-credentials";
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
  const candidates = new D1CandidateTexts(env.DB);
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
     * A page of every memory item, then of every chat summary, then of every dreaming candidate,
     * and those of it that hold a credential, shown masked: one listing, in that order.
     */
    heldCredentials: async (p: PageAsk) => {
      const page = await chainedPage(
        [
          async (q) => {
            const r = await admin.list(q);
            return { scanned: r.items.length, found: heldCredentials(r.items), total: r.total };
          },
          async (q) => {
            const r = await summaries.page(q);
            return { scanned: r.items.length, found: heldTexts("summary", r.items), total: r.total };
          },
          async (q) => {
            const r = await candidates.page(q);
            return { scanned: r.items.length, found: heldTexts("candidate", r.items), total: r.total };
          },
        ],
        p,
      );
      return { scanned: page.scanned, total: page.total, nextOffset: page.nextOffset, held: page.found };
    },
    /**
     * Erases the items and summaries, each as `forget` does, and withholds the candidates'
     * statements, when every one holds a credential; else nothing. An item goes first with its
     * candidates, so a candidate listed beside it may be gone by its turn.
     */
    eraseCredentials: async (ids: readonly string[]) => {
      const items = (await Promise.all(ids.map((id) => admin.get(id)))).flatMap((i) => i ?? []);
      const found = await summaries.get(ids);
      const decided = await candidates.get(ids);
      const erasure = credentialErasure(ids, [...items, ...found, ...decided]);
      if (!erasure.ok) return erasure;
      const isSummary = new Set(found.map((s) => s.nodeId));
      const isCandidate = new Set(decided.map((c) => c.nodeId));
      const ordered = [...erasure.value].sort(
        (a, b) => Number(isCandidate.has(a)) - Number(isCandidate.has(b)),
      );
      for (const id of ordered) {
        if (isCandidate.has(id)) await candidates.withhold(id, act());
        else await (isSummary.has(id) ? summaries.erase(id, act()) : admin.forget(id, act()));
      }
      return erasure;
    },
  };
}

export type MemoryService = ReturnType<typeof memoryService>;
