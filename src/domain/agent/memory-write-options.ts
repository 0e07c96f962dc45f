/**
 * What a turn's memory write (`/remember`, memory_write) uses beside the store: the read model's
 * vectors, when the settings give it a measured restatement threshold (restatement-vectors.ts).
 */
import type { RememberOptions } from "../memory/remember";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export const memoryWriteOptions = (ctx: TurnContext, services: TurnServices): RememberOptions => ({
  restatements: services.memory.restatements?.(ctx.settings.knowledge) ?? null,
  logger: services.logger,
});
