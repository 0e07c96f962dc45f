/**
 * POST /webhook/onebot — OneBot v11 HTTP POST events (NapCat, go-cqhttp). With ONEBOT_SECRET
 * set, `X-Signature` (HMAC-SHA1 of the raw body) is required; production refuses to run
 * this webhook without a secret. The event's `time` must lie within
 * `webhook.oneBotMaxAgeSeconds` of now, so a captured signed event cannot be replayed later
 * (inside the window, the chat object's dedupe catches it). Answers 204 (no quick operation)
 * once the chat object has stored the event; refusals get their status with an empty body.
 */
import { Hono } from "hono";
import { chatObject } from "../../composition/common/chat-stub";
import { oneBotTransport } from "../../composition/request/webhook-transports";
import { err, ok } from "../../domain/kernel/result";
import { rejectWebhook, verifiedWebhook, type WebhookEnv } from "../verified-webhook";

const oneBotGate = verifiedWebhook({
  name: "onebot",
  async verify({ config, headers, body }) {
    if (config.onebot.secret) {
      const verified = await oneBotTransport.verifySignature({
        secret: config.onebot.secret,
        header: headers.get("x-signature"),
        body,
      });
      return verified.ok ? ok(undefined) : err({ status: 401, reason: verified.error.reason });
    }
    return config.mode === "production"
      ? err({ status: 403, reason: "the OneBot webhook needs ONEBOT_SECRET in production" })
      : ok(undefined);
  },
  fresh(payload, limits, nowMs) {
    const time = typeof payload === "object" && payload !== null ? Reflect.get(payload, "time") : undefined;
    if (typeof time !== "number" || !Number.isFinite(time))
      return err({ status: 400, reason: "event has no numeric time" });
    return Math.abs(nowMs / 1000 - time) > limits.oneBotMaxAgeSeconds
      ? err({ status: 401, reason: "stale event time" })
      : ok(undefined);
  },
});

export const oneBotWebhookRoutes = new Hono<WebhookEnv>().post("/", oneBotGate, async (c) => {
  const event = oneBotTransport.toInboundEvent(c.get("payload"), Date.now());
  if (!event.ok) {
    if (event.error.kind === "invalid")
      return rejectWebhook(c, "onebot", { status: 400, reason: event.error.reason });
    return c.body(null, 204);
  }
  await chatObject(c.env, event.value.chat.key).enqueue(event.value);
  return c.body(null, 204);
});
