/**
 * POST /webhook/qq — the QQ official-bot webhook (docs/qq-protocol.md#request-order): size cap,
 * X-Bot-Appid, Ed25519 signature over timestamp + raw body (op 13 included), replay window,
 * then op 13 answer or dispatch → chat object → ACK. The ACK is sent only after the chat
 * object has stored the event; a request that fails any check changes nothing.
 */
import { Hono } from "hono";
import { toInboundEvent } from "../../adapters/qq/qq-event";
import { parseQqEnvelope } from "../../adapters/qq/qq-event.schema";
import { answerValidation, checkQqRequest } from "../../adapters/qq/qq-webhook-request";
import type { AppEnv } from "../app-env";
import { chatSession } from "../chat-stub";
import { parseJsonBytes, readRawBody } from "../raw-body";
import { loadSettings } from "../settings-loader";

/** botgo's ACK: d 0 = received. (d 1 would ask the platform to retry.) */
const ACK = { op: 12, d: 0 } as const;

export const qqWebhookRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const config = c.get("config");
  const settings = await loadSettings(c.env);
  const body = await readRawBody(c.req.raw, settings.webhook.maxBodyBytes);
  if (!body.ok) return c.json({ error: "payload-too-large", reason: body.reason }, body.status);

  const check = await checkQqRequest({
    appId: config.qq.appId,
    secret: config.qq.secret,
    headers: c.req.raw.headers,
    body: body.bytes,
    nowMs: Date.now(),
    maxSkewSeconds: settings.webhook.maxSkewSeconds,
  });
  if (!check.ok) {
    log("qq webhook rejected", {
      status: check.error.status,
      reason: check.error.reason,
      trace: traceId(c.req.raw),
    });
    return c.json(
      { error: check.error.status === 403 ? "forbidden" : "unauthorized", reason: check.error.reason },
      check.error.status,
    );
  }

  const json = parseJsonBytes(body.bytes);
  if (!json.ok) return c.json({ error: "bad-request", reason: json.reason }, 400);
  const envelope = parseQqEnvelope(json.value);
  if (!envelope.ok) return c.json({ error: "bad-request", reason: envelope.error.reason }, 400);

  if (envelope.value.op === 13) {
    const answer = await answerValidation(envelope.value.d, config.qq.secret);
    if (!answer.ok) return c.json({ error: "bad-request", reason: answer.error.reason }, 400);
    return c.json(answer.value);
  }

  const event = toInboundEvent(envelope.value, Date.now());
  if (!event.ok) {
    if (event.error.kind === "invalid")
      return c.json({ error: "invalid-event", reason: event.error.reason }, 400);
    // Acknowledged so that the platform does not retry an event we will never handle.
    log("qq event ignored", { type: envelope.value.t ?? null, reason: event.error.reason });
    return c.json(ACK);
  }
  const outcome = await chatSession(c.env, event.value.chat.key).enqueue(event.value);
  if (outcome.status === "duplicate") log("qq event duplicate", { event: event.value.eventId });
  return c.json(ACK);
});

function traceId(request: Request): string | null {
  return request.headers.get("x-tps-trace-id");
}

function log(msg: string, fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ msg, ...fields }));
}
