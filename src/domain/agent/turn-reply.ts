/** What a turn sends: the model's answer, masked, then cut to the chat's reply length. */
import { maskSensitiveData } from "../privacy/credentials";
import type { TurnContext } from "./turn-context";

/**
 * The model's answer as the turn's reply, masked before it is cut to `maxReplyChars`: a cut
 * through a key leaves a piece that no longer matches any key format, and no later masking
 * would find it.
 */
export function finalReplies(text: string, ctx: TurnContext): string[] {
  const masked = maskSensitiveData(text.trim());
  if (masked === "") return [];
  return [cutTo(masked, ctx.settings.turn.maxReplyChars)];
}

function cutTo(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}
