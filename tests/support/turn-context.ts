// The one turn-context builder of the tests: the context the chat object hands a turn for an
// event, with no resolved identity and no recent turns unless a test gives them.
import type { TurnContext } from "@src/domain/agent/turn-context";
import { DEFAULT_SETTINGS, type Settings } from "@src/domain/config/settings";
import type { InboundEvent } from "@src/domain/inbound/inbound-event";
import { messageEvent } from "../fakes/inbound";
import { TEST_NOW } from "../fakes/turn-ports";

export function turnContext(
  event: InboundEvent,
  fields: Pick<TurnContext, "text" | "settings" | "now"> & Partial<TurnContext>,
): TurnContext {
  return { event, chat: event.chat, sender: event.sender, identity: null, recent: [], ...fields };
}

/** The context of `sender` (an account key like qq:user:U1) saying `text` in `chat` at TEST_NOW. */
export function senderContext(chat: string, text: string, sender: string, settings: Settings): TurnContext {
  const event = messageEvent({ chat, text, sender: sender.split(":")[2] ?? sender });
  return turnContext(event, { text, settings, now: TEST_NOW });
}

/** The context of U1 saying `text` in `chat`, under the default settings at TEST_NOW unless `fields` say otherwise. */
export function chatContext(chat: string, text: string, fields: Partial<TurnContext> = {}): TurnContext {
  return turnContext(messageEvent({ chat, text }), {
    text,
    settings: DEFAULT_SETTINGS,
    now: TEST_NOW,
    ...fields,
  });
}
