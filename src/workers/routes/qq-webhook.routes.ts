/**
 * POST /webhook/qq — the QQ official-bot webhook (docs/qq-protocol.md#request-order). The shared
 * gate (verified-webhook.ts) checks the size cap, X-Bot-Appid, the Ed25519 signature over
 * timestamp + raw body (op 13 included) and the replay window with env secrets only; then op 13
 * is answered or the dispatch goes to its chat object → ACK. The ACK is sent only after the chat
 * object has stored the event; when it could not, the answer asks the platform to deliver the
 * event again (the inbox dedupes it). A request that fails any check changes nothing and gets
 * its status with an empty body.
 */
import { Hono } from "hono";
import { chatObject } from "../../composition/common/chat-stub";
import { qqTransport } from "../../composition/request/webhook-transports";
import { enqueueTiming } from "../enqueue-timing";
import { keepError } from "../error-response";
import { rejectWebhook, verifiedWebhook, type WebhookEnv } from "../verified-webhook";

/** botgo's ACK: d 0 = received. */
const ACK = { op: 12, d: 0 } as const;
/** botgo's answer to a dispatch it failed to handle: d 1 asks the platform to deliver it again. */
const RETRY_ACK = { op: 12, d: 1 } as const;

const qqGate = verifiedWebhook({
  name: "qq",
  verify: ({ config, limits, headers, body, nowMs }) =>
    qqTransport.checkRequest({
      appId: config.qq.appId,
      secret: config.qq.secret,
      headers,
      body,
      nowMs,
      maxSkewSeconds: limits.maxSkewSeconds,
    }),
});

export const qqWebhookRoutes = new Hono<WebhookEnv>().post("/", qqGate, async (c) => {
  const config = c.get("config");
  const envelope = qqTransport.parseEnvelope(c.get("payload"));
  if (!envelope.ok) return rejectWebhook(c, "qq", { status: 400, reason: envelope.error.reason });

  if (envelope.value.op === 13) {
    const answer = await qqTransport.answerValidation(envelope.value.d, config.qq.secret);
    if (!answer.ok) return rejectWebhook(c, "qq", { status: 400, reason: answer.error.reason });
    return c.json(answer.value);
  }

  const event = qqTransport.toInboundEvent(envelope.value, Date.now());
  if (!event.ok) {
    if (event.error.kind === "invalid")
      return rejectWebhook(c, "qq", { status: 400, reason: event.error.reason });
    // Acknowledged so that the platform does not retry an event we will never handle.
    log("qq event ignored", { type: envelope.value.t ?? null, reason: event.error.reason });
    return c.json(ACK);
  }
  const started = performance.now();
  const enqueueStart = Date.now();
  // The runtime already retried a call that never reached the object. What still fails (an
  // overloaded object, one that threw) was not stored: acknowledging it would lose the message.
  const outcome = await chatObject(c.env, event.value.chat.key)
    .enqueue(event.value)
    .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (outcome instanceof Error) {
    log("qq event not taken", { event: event.value.eventId, error: String(outcome) });
    await keepError(c, "qq webhook", `event ${event.value.eventId} not taken, redelivery asked: ${outcome}`);
    return c.json(RETRY_ACK);
  }
  if (outcome.status === "duplicate") log("qq event duplicate", { event: event.value.eventId });
  // Local mode only: how much of the ACK the chat object took, and the ACK's trace (read by
  // the webhook bench).
  if (config.mode === "local") {
    const trace = { entry: c.get("enteredAt"), enqueueStart, enqueueEnd: Date.now() };
    c.header("server-timing", enqueueTiming(performance.now() - started, trace));
  }
  return c.json(ACK);
});

function log(msg: string, fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ msg, ...fields }));
}
