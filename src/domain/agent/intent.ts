/**
 * Intents: plain-language requests the bot handles itself, before the model, like a command
 * without a slash — "记住…", "remember that …". They run the same with every model adapter.
 */
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export interface Intent {
  readonly name: string;
  /** The intent's argument when the message is this intent, else null. Pure and cheap. */
  match(text: string): string | null;
  run(args: string, ctx: TurnContext, services: TurnServices): Promise<string>;
}
