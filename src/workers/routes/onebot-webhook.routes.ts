/**
 * POST /webhook/onebot — OneBot v11 HTTP POST events (NapCat, go-cqhttp). With ONEBOT_SECRET
 * set, `X-Signature` (HMAC-SHA1 of the raw body) is required; production refuses to run
 * this webhook without a secret. Answers 204 (no quick operation) once the chat object has
 * stored the event.
 */
import { Hono } from "hono";
import { toInboundEvent } from "../../adapters/onebot/onebot-event";
import { verifyOneBotSignature } from "../../adapters/onebot/onebot-signature";
import { chatSession } from "../../composition/chat-stub";
import { loadSettings } from "../../composition/settings-source";
import type { AppEnv } from "../app-env";
import { parseJsonBytes, readRawBody } from "../raw-body";

export const oneBotWebhookRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const config = c.get("config");
  const settings = await loadSettings(c.env);
  const body = await readRawBody(c.req.raw, settings.webhook.maxBodyBytes);
  if (!body.ok) return c.json({ error: "payload-too-large", reason: body.reason }, body.status);

  if (config.onebot.secret) {
    const verified = await verifyOneBotSignature({
      secret: config.onebot.secret,
      header: c.req.header("x-signature"),
      body: body.bytes,
    });
    if (!verified.ok) return c.json({ error: "unauthorized", reason: verified.error.reason }, 401);
  } else if (config.mode === "production") {
    return c.json(
      { error: "forbidden", reason: "the OneBot webhook needs ONEBOT_SECRET in production" },
      403,
    );
  }

  const json = parseJsonBytes(body.bytes);
  if (!json.ok) return c.json({ error: "bad-request", reason: json.reason }, 400);
  const event = toInboundEvent(json.value, Date.now());
  if (!event.ok) {
    if (event.error.kind === "invalid")
      return c.json({ error: "invalid-event", reason: event.error.reason }, 400);
    return c.body(null, 204);
  }
  await chatSession(c.env, event.value.chat.key).enqueue(event.value);
  return c.body(null, 204);
});
