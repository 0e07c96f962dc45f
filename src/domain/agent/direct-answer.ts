/**
 * A turn answered before any model: a command ("/memory"), else a plain-language intent
 * ("记住…"). Either answers about memory and sessions, so the turn takes its words as holding
 * what must stay in the chat (turn-privacy.ts).
 */
import { type Command, parseCommand } from "./command";
import type { Intent } from "./intent";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export type DirectAnswer = {
  readonly text: string;
  /** The command's or the intent's name. */
  readonly name: string;
  /** The command cleared the chat's short-term context (`/reset`). */
  readonly contextReset: boolean;
};

/** The command's or the first matching intent's answer; null when the model answers. */
export async function answerDirectly(
  ctx: TurnContext,
  services: TurnServices,
  handlers: { commands: readonly Command[]; intents?: readonly Intent[] },
): Promise<DirectAnswer | null> {
  const command = parseCommand(ctx.text);
  if (command) {
    const handler = handlers.commands.find((c) => c.name === command.name);
    const answer = handler
      ? await handler.run(command.args, ctx, services)
      : `未知命令 /${command.name}，发送 /help 查看可用命令。`;
    const reply = typeof answer === "string" ? { text: answer } : answer;
    return { text: reply.text, name: command.name, contextReset: reply.resetContext === true };
  }
  for (const intent of handlers.intents ?? []) {
    const args = intent.match(ctx.text);
    if (args === null) continue;
    return { text: await intent.run(args, ctx, services), name: intent.name, contextReset: false };
  }
  return null;
}
