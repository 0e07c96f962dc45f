/**
 * Before each model call of a turn: when the chat or the whole bot has reached its daily token
 * cap, the turn stops with a brief reply saying so, and the refusal is audited. Commands and
 * intents never reach this, so `/help` and `/remember` keep working over the cap.
 */
import type { UsageRecord } from "../model/chat-model";
import { cappedReply } from "../spend/spend-cap";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

/** The reply that ends the turn instead of the call, or null when the call may go ahead. */
export async function spendStop(
  ctx: TurnContext,
  services: TurnServices,
  spentThisTurn: readonly UsageRecord[],
): Promise<string | null> {
  if (!services.spend) return null;
  const verdict = await services.spend.check(spentThisTurn);
  if (verdict.allowed) return null;
  services.audit.record({
    action: "spend.capped",
    actor: ctx.sender?.account ?? null,
    target: verdict.scope === "chat" ? ctx.chat.key : "global",
    outcome: "refused",
    detail: {
      purpose: "turn",
      scope: verdict.scope,
      used: verdict.used,
      cap: verdict.cap,
      day: verdict.day.day,
      round: spentThisTurn.length,
    },
  });
  return cappedReply(verdict);
}
