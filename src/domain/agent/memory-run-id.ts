/** Run ids of the memory writes a turn makes. */
import type { TurnContext } from "./turn-context";

/** The run id of a write made by this turn: a retried turn derives the same one. */
export const turnRunId = (ctx: TurnContext, suffix: string): string => `turn:${ctx.event.eventId}:${suffix}`;
