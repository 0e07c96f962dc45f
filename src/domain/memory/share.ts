/**
 * `/share <id>`: the person makes one of their private items shareable on purpose
 * (docs/memory.md#private-by-origin). Only in their own private chat, and only an item of a
 * scope this turn may both write and read — their person or account scope, or this private
 * chat's — so nobody shares someone else's item, and the answer, which names the item, is
 * said to its owner alone. Any other id answers not-found.
 */
import { err, ok, type Result } from "../kernel/result";
import type { MemoryItem } from "./memory";
import type { MemoryStore } from "./memory-store";
import { learnedInPrivate } from "./origin";
import { includesScope, type ScopeInput, scopeAllows, turnScopes } from "./scope";

export type ShareError =
  | { readonly kind: "not-here"; readonly reason: string }
  | { readonly kind: "not-found"; readonly what: string };

export async function share(
  store: MemoryStore,
  req: { nodeId: string; scopes: ScopeInput; runId: string; chatKey: string; now: number },
): Promise<Result<MemoryItem, ShareError>> {
  if (!learnedInPrivate(req.scopes.session))
    return err({ kind: "not-here", reason: "items are shared from their owner's private chat only" });
  const { writable, readable } = turnScopes(req.scopes);
  const item = await store.get(req.nodeId);
  if (item?.status !== "active" || !includesScope(writable, item.scope) || !scopeAllows(readable, item))
    return err({ kind: "not-found", what: `memory ${req.nodeId}` });
  if (item.sensitivity === "public") return ok(item);
  await store.commit({
    runId: req.runId,
    chatKey: req.chatKey,
    at: req.now,
    writable,
    inserts: [],
    supersede: [],
    archive: [],
    updates: [{ nodeId: item.nodeId, tag: { sensitivity: "public", source: "explicit" } }],
    candidates: [],
  });
  return ok({ ...item, sensitivity: "public", sensitivitySource: "explicit" });
}
