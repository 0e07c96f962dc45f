/**
 * What memory a turn reads and writes: its scope input (session, identity, linked chats,
 * whether an admin writes), its scopes, and the recall ports. Tools, commands, context
 * providers and the context preview all go through these, so they agree on scopes.
 */
import type { RecallDeps } from "../memory/recall";
import { type ScopeInput, type TurnScopes, turnScopes } from "../memory/scope";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export async function scopeInputOf(ctx: TurnContext, services: TurnServices): Promise<ScopeInput> {
  const linkedChats = await services.memory.links.linkedChats(ctx.chat.key);
  return {
    session: ctx.session ?? ctx.chat.key,
    identity: ctx.identity,
    linkedChats,
    writesGlobal: ctx.senderIsAdmin === true,
  };
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
