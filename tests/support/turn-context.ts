// The one turn-context builder of the tests: the context the chat object hands a turn for an
// event, with no resolved identity and no recent turns unless a test gives them.
import type { TurnContext } from "../../src/domain/agent/turn-context";
import type { InboundEvent } from "../../src/domain/inbound/inbound-event";

export function turnContext(
  event: InboundEvent,
  fields: Pick<TurnContext, "text" | "settings" | "now"> & Partial<TurnContext>,
): TurnContext {
  return { event, chat: event.chat, sender: event.sender, identity: null, recent: [], ...fields };
}
