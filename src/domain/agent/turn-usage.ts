/** The usage row of one model call of a turn, failed or not: what the spend caps count (docs/settings.md#spend-caps). */
import type { Result } from "../kernel/result";
import type { ModelError, ModelResponse, UsageRecord } from "../model/chat-model";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export function turnUsage(
  ctx: TurnContext,
  services: TurnServices,
  started: number,
  response: Result<ModelResponse, ModelError>,
): UsageRecord {
  return {
    chatKey: ctx.chat.key,
    provider: services.model.provider,
    model: response.ok ? response.value.model : services.model.model,
    purpose: "turn",
    promptTokens: response.ok ? response.value.usage.promptTokens : null,
    completionTokens: response.ok ? response.value.usage.completionTokens : null,
    latencyMs: Math.max(0, services.clock.now() - started),
    ok: response.ok,
    errorKind: response.ok ? null : response.error.kind,
    at: services.clock.now(),
  };
}
