/**
 * What memory a turn reads and writes: its scope input (session, identity, linked chats,
 * whether an admin writes), its scopes, and the recall ports. Tools, commands, context
 * providers and the context preview all go through these, so they agree on scopes.
 */
import type { SenderIdentity } from "../identity/sender-identity";
import type { ChatLinks } from "../memory/memory-store";
import { globalRequested } from "../memory/origin";
import type { RecallDeps } from "../memory/recall";
import { type ScopeInput, type TurnScopes, turnScopes } from "../memory/scope";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export async function scopeInputOf(ctx: TurnContext, services: TurnServices): Promise<ScopeInput> {
  const input = await chatScopeInput(services.memory.links, {
    chat: ctx.chat.key,
    session: ctx.session ?? ctx.chat.key,
    identity: ctx.identity,
    writesGlobal: ctx.senderIsAdmin === true,
  });
  // The global marker counts only in the admin's own message (a command's text included),
  // never in what the model writes.
  const said = ctx.text.replace(/^(?:\s*@\S+)*\s*\/\S+\s*/u, "");
  return { ...input, globalOnPurpose: ctx.senderIsAdmin === true && globalRequested(said) };
}

/**
 * The scope input of a turn in `chat` by a sender of this identity. The turn and the admin
 * view of who can read what (chat-readers.ts) both build it here, so they cannot disagree.
 */
export async function chatScopeInput(
  links: ChatLinks,
  turn: { chat: string; session: string; identity: SenderIdentity | null; writesGlobal: boolean },
): Promise<ScopeInput> {
  const linkedChats = await links.linkedChats(turn.chat);
  return { session: turn.session, identity: turn.identity, linkedChats, writesGlobal: turn.writesGlobal };
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
