/**
 * Chat commands (`/help`, `/ping`, …) run before and without the model, so they work the
 * same with every model adapter, offline included.
 */
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

/** A reply plus what the command did to the turn (e.g. `/reset` cleared its context). */
export type CommandReply = { readonly text: string; readonly resetContext?: boolean };

export interface Command {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  run(args: string, ctx: TurnContext, services: TurnServices): Promise<string | CommandReply>;
}

/** `/name args` at the start of the message; full-width `／` counts. Null when not a command. */
export function parseCommand(text: string): { name: string; args: string } | null {
  const trimmed = text.normalize("NFKC").trim();
  const match = /^\/([a-z][a-z0-9_-]{0,31})(?:\s+([\s\S]*))?$/i.exec(trimmed);
  if (!match) return null;
  return { name: (match[1] ?? "").toLowerCase(), args: (match[2] ?? "").trim() };
}
