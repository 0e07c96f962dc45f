/**
 * The webhooks' request limits (body cap, replay windows) from env alone: the defaults under
 * AKASHA_CONFIG. They are applied before a request is authenticated, so they must not wait
 * for D1: an outage of the settings store must not turn every webhook, the op 13 validation
 * included, into a 500 before the signature was even checked. The stored settings layer
 * therefore cannot set `webhook` (settings-edit refuses it).
 */

import { akashaConfigText } from "../composition/common/runtime-config";
import { varSettings } from "../composition/settings/settings-loader";
import type { Settings } from "../domain/config/settings";

export type WebhookLimits = Settings["webhook"];

let cached: { varText: string; limits: WebhookLimits } | null = null;

export function webhookLimits(env: Env): WebhookLimits {
  // Parsed once per isolate for a given AKASHA_CONFIG text: env is fixed for a deployment.
  const varText = akashaConfigText(env);
  if (cached?.varText === varText) return cached.limits;
  cached = { varText, limits: varSettings(env).webhook };
  return cached.limits;
}
