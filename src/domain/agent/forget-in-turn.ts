/**
 * The one forget path of a turn, shared by `/forget` (which erases) and memory_forget (which
 * archives): the item ends only if the turn's scopes may write and read it (remember.ts#forget),
 * under a run id a retried turn derives again.
 */

import type { Result } from "../kernel/result";
import type { MemoryItem } from "../memory/memory";
import { type ForgetHow, forget } from "../memory/remember";
import type { ScopeInput } from "../memory/scope";
import { turnRunId } from "./memory-run-id";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export function forgetInTurn(
  ctx: TurnContext,
  services: TurnServices,
  req: { nodeId: string; scopes: ScopeInput; reason: string; how: ForgetHow },
): Promise<Result<MemoryItem, { kind: "not-found"; what: string }>> {
  return forget(services.memory.store, {
    nodeId: req.nodeId,
    scopes: req.scopes,
    runId: turnRunId(ctx, `forget:${req.nodeId}`),
    chatKey: ctx.chat.key,
    now: ctx.now,
    reason: req.reason,
    how: req.how,
  });
}
