/**
 * The context a turn of this chat object runs with: the sender's identity, the event's text,
 * the recent turns the settings keep. One builder, so the billed turn (`npm run bench -- turn`)
 * is the turn the alarm runs.
 */
import type { RecentTurn, TurnContext } from "../domain/agent/turn-context";
import type { Settings } from "../domain/config/settings";
import type { IdentityResolver } from "../domain/identity/sender-identity";
import type { InboundEvent } from "../domain/inbound/inbound-event";

export async function turnContextOf(input: {
  readonly event: InboundEvent;
  readonly identity: IdentityResolver;
  readonly recent: (limit: number) => readonly RecentTurn[];
  readonly settings: Settings;
  readonly now: number;
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
    recent: input.recent(settings.turn.recentTurns),
    settings,
    now: input.now,
  };
}
