/**
 * Reinforcement by use (docs/memory.md#decay-and-reinforcement): when the model answered a turn,
 * the memory items automatic recall put into the context it received — after the prompt budget,
 * so an item cut for space was not used — and those `memory_search` showed it count as used, once
 * per inbound event. A failure is logged and never costs the turn its answer.
 */
import type { RecalledItem } from "../model/chat-model";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

/** The node ids of the recalled memory items that went into the prompt. */
export function usedMemoryIds(recalled: readonly RecalledItem[]): string[] {
  return [...new Set(recalled.flatMap((r) => (r.source === "memory" && r.meta ? [r.meta.nodeId] : [])))];
}

export async function reinforceUsed(
  ctx: TurnContext,
  services: Pick<TurnServices, "memory" | "logger">,
  recalled: readonly RecalledItem[],
  shown: readonly string[] = [],
): Promise<void> {
  const ids = [...new Set([...usedMemoryIds(recalled), ...shown])];
  if (ids.length === 0) return;
  try {
    await services.memory.store.reinforce(ids, { kind: "used", key: ctx.event.eventId }, ctx.now);
  } catch (e) {
    services.logger.warn("memory reinforcement failed", { items: ids.length, error: String(e) });
  }
}
