/**
 * The context a turn of a chat runs with: the sender's identity, the event's text,
 * the recent turns the settings keep. One builder, so the billed turn (`npm run bench -- turn`)
 * is the turn the alarm runs.
 */

import type { Settings } from "../config/settings";
import type { IdentityResolver } from "../identity/sender-identity";
import type { InboundEvent } from "../inbound/inbound-event";
import type { RecentTurn, TurnContext } from "./turn-context";

export async function turnContextOf(input: {
  readonly event: InboundEvent;
  readonly identity: IdentityResolver;
  readonly recent: (limit: number) => readonly RecentTurn[];
  readonly settings: Settings;
  readonly now: number;
  /** Whether the chat's own log marked the message (TurnContext.nearRequest). */
  readonly nearRequest?: boolean;
}): Promise<TurnContext> {
  const { event, settings } = input;
  const identity = event.sender
    ? await input.identity.resolve({
        account: event.sender.account,
        chatKey: event.chat.key,
        unionId: event.sender.unionId,
      })
    : null;
  return {
    event,
    chat: event.chat,
    sender: event.sender,
    identity,
    text: event.message?.text ?? "",
    ...(input.nearRequest === true ? { nearRequest: true } : {}),
    recent: input.recent(settings.turn.recentTurns),
    settings,
    now: input.now,
  };
}
