/**
 * Local-only dev console (mounted only in local mode). POST /dev/message turns
 * `{chat, sender, text}` into the event the platform would send, signs it exactly as the
 * platform does, hands it to the real webhook routes (in process, as the platform's request
 * would reach them) and answers with the replies the bot sent once the turn is done (or
 * after 10 s).
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { chatObject } from "../../composition/common/chat-stub";
import { type RuntimeConfig, readRuntimeConfig } from "../../composition/common/runtime-config";
import { webhookSigning } from "../../composition/dev/dev-adapters";
import { type ChatAddress, chatKeyOf, parseChatKey } from "../../domain/chat/chat-address";
import { simulatedMessageFields } from "../admin-input/simulated-message";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";
import { webhookRoutes } from "../routes/webhook.routes";

const TURN_WAIT_MS = 10_000;
const POLL_MS = 25;
/** OneBot self id of the simulated bot account. */
const ONEBOT_SELF_ID = 10000;

const DevMessageSchema = z
  .object({
    chat: z.string().min(1),
    ...simulatedMessageFields,
  })
  .strict();

type DevMessage = z.infer<typeof DevMessageSchema>;
type Simulated = { path: string; body: string; headers: Record<string, string>; eventId: string };

export const devRoutes = new Hono<AppEnv>().post("/message", jsonBody(DevMessageSchema), async (c) => {
  const input = c.req.valid("json");
  const address = parseChatKey(input.chat);
  if (!address.ok) return problem(c, { kind: "invalid", field: "chat", reason: address.error.reason });
  const simulated = await simulate(address.value, input, c.get("config"));
  if (!simulated) {
    return problem(c, {
      kind: "invalid",
      field: "chat",
      reason: "use qq:group:<id>, qq:private:<id>, onebot:group:<id> or onebot:private:<id>",
    });
  }
  const webhook = await deliver(c, simulated);
  if (!webhook.ok)
    return problem(c, {
      kind: "unavailable",
      reason: `the webhook refused the simulated event with ${webhook.status} (see the log)`,
    });

  const session = chatObject(c.env, chatKeyOf(address.value));
  const deadline = Date.now() + TURN_WAIT_MS;
  let status = await session.turnStatus(simulated.eventId);
  while (status.state !== "done" && status.state !== "unknown" && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    status = await session.turnStatus(simulated.eventId);
  }
  return c.json({
    chat: chatKeyOf(address.value),
    eventId: simulated.eventId,
    state: status.state,
    replies: status.replies.filter((r) => r.state === "sent").map((r) => r.text),
  });
});

/** The webhook routes with the runtime config they expect, as the app mounts them under /webhook. */
const webhooks = new Hono<AppEnv>()
  .use("*", async (c, next) => {
    c.set("config", readRuntimeConfig(c.env));
    await next();
  })
  .route("/webhook", webhookRoutes);

async function deliver(c: Context<AppEnv>, simulated: Simulated): Promise<Response> {
  let executionCtx: Context<AppEnv>["executionCtx"] | undefined;
  try {
    executionCtx = c.executionCtx;
  } catch {
    // No execution context (app.request in tests): the webhook runs without one too.
  }
  const init = { method: "POST", headers: simulated.headers, body: simulated.body };
  return webhooks.request(new URL(simulated.path, c.req.url).toString(), init, c.env, executionCtx);
}

async function simulate(
  address: ChatAddress,
  input: DevMessage,
  config: RuntimeConfig,
): Promise<Simulated | null> {
  const id = crypto.randomUUID().replaceAll("-", "");
  if (address.channel === "qq" && (address.targetType === "group" || address.targetType === "private")) {
    return simulateQq(address, input, id, config);
  }
  if (address.channel === "onebot" && (address.targetType === "group" || address.targetType === "private")) {
    return simulateOneBot(address, input, config);
  }
  return null;
}

async function simulateQq(
  address: ChatAddress,
  input: DevMessage,
  id: string,
  config: RuntimeConfig,
): Promise<Simulated> {
  const group = address.targetType === "group";
  const sender = group ? (input.sender ?? "DEVUSER") : address.targetId;
  const type = group ? "GROUP_AT_MESSAGE_CREATE" : "C2C_MESSAGE_CREATE";
  const author = group
    ? { id: sender, member_openid: sender, ...(input.name ? { username: input.name } : {}) }
    : { id: sender, user_openid: sender, ...(input.name ? { username: input.name } : {}) };
  const d = {
    id: `ROBOT1.0_dev${id}`,
    content: group ? ` ${input.text}` : input.text,
    timestamp: new Date().toISOString(),
    author,
    ...(group ? { group_id: address.targetId, group_openid: address.targetId } : {}),
    message_scene: { source: "default" },
    message_type: 0,
  };
  const eventId = `${type}:dev${id}`;
  const body = JSON.stringify({ op: 0, id: eventId, d, t: type });
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    path: "/webhook/qq",
    body,
    eventId,
    headers: {
      "content-type": "application/json",
      "user-agent": "QQBot-Callback",
      "x-bot-appid": config.qq.appId,
      "x-signature-timestamp": timestamp,
      "x-signature-ed25519": await webhookSigning.qq(config.qq.secret, `${timestamp}${body}`),
      "x-signature-method": "Ed25519",
    },
  };
}

async function simulateOneBot(
  address: ChatAddress,
  input: DevMessage,
  config: RuntimeConfig,
): Promise<Simulated> {
  const group = address.targetType === "group";
  const userId = group ? (input.sender ?? "20000") : address.targetId;
  const messageId = Math.floor(Math.random() * 2 ** 31);
  const message = [
    ...(group ? [{ type: "at", data: { qq: String(ONEBOT_SELF_ID) } }] : []),
    { type: "text", data: { text: group ? ` ${input.text}` : input.text } },
  ];
  const body = JSON.stringify({
    time: Math.floor(Date.now() / 1000),
    self_id: ONEBOT_SELF_ID,
    post_type: "message",
    message_type: address.targetType,
    sub_type: group ? "normal" : "friend",
    message_id: messageId,
    user_id: Number(userId) || userId,
    ...(group ? { group_id: Number(address.targetId) || address.targetId } : {}),
    message,
    raw_message: input.text,
    font: 0,
    sender: { user_id: Number(userId) || userId, nickname: input.name ?? `user${userId}` },
  });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (config.onebot.secret) headers["x-signature"] = await webhookSigning.oneBot(config.onebot.secret, body);
  return { path: "/webhook/onebot", body, headers, eventId: `onebot:${ONEBOT_SELF_ID}:msg:${messageId}` };
}
