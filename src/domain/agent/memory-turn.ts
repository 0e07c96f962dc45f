/**
 * How a turn talks to memory: its scope input (session, identity, linked chats), who is
 * speaking, and recalled items in the prompt's shape. Tools, commands, context providers and
 * the context preview all go through these, so they agree on scopes.
 */
import type { RecallDeps, RecalledMemory } from "../memory/recall";
import { type ScopeInput, type TurnScopes, turnScopes } from "../memory/scope";
import { type Speaker, speakerOf as speakerFrom } from "../memory/speaker-name";
import type { RecalledItem } from "../model/chat-model";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export async function scopeInputOf(ctx: TurnContext, services: TurnServices): Promise<ScopeInput> {
  const linkedChats = await services.memory.links.linkedChats(ctx.chat.key);
  return { session: ctx.session ?? ctx.chat.key, identity: ctx.identity, linkedChats };
}

export async function scopesOf(
  ctx: TurnContext,
  services: TurnServices,
): Promise<{ input: ScopeInput; scopes: TurnScopes }> {
  const input = await scopeInputOf(ctx, services);
  return { input, scopes: turnScopes(input) };
}

/**
 * What memory recall searches this turn: the memory index, plus the vector ports of the
 * embedding model the turn's settings read (none wired = full text only).
 */
export function recallDepsOf(ctx: TurnContext, services: TurnServices): RecallDeps {
  return { index: services.memory.index, vectors: services.memory.vectors?.(ctx.settings.knowledge) ?? null };
}

/** The speaker as memory uses it: the name its text says ("小明喜欢猫") and a stable id. */
export function speakerOf(ctx: TurnContext): Speaker {
  return speakerFrom({
    displayName: ctx.sender?.displayName,
    userId: ctx.sender?.userId,
    account: ctx.sender?.account,
    personId: ctx.identity?.personId,
  });
}

export function recalledItem(r: RecalledMemory): RecalledItem {
  return {
    source: "memory",
    text: r.item.text,
    citation: r.citation,
    meta: {
      nodeId: r.item.nodeId,
      scope: r.scope,
      kind: r.item.kind,
      sensitivity: r.item.sensitivity,
      score: r.score,
    },
  };
}

/** The run id of a write made by this turn: a retried turn derives the same one. */
export const turnRunId = (ctx: TurnContext, suffix: string): string => `turn:${ctx.event.eventId}:${suffix}`;
