/**
 * POST /api/context/preview (admin): exactly what the next turn of a chat would get for a
 * message — which handler answers, the mandatory block, and every recalled item with its
 * scope, kind, sensitivity, score and citation. Read-only; the chat object computes it with
 * the turn's own code.
 */
import { Hono } from "hono";
import { z } from "zod";
import { chatSession } from "../../composition/chat-stub";
import { accountKey, chatKeyOf, parseSessionKey } from "../../domain/chat/chat-address";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

const PreviewSchema = z
  .object({
    /** A chat key (`qq:group:<id>`), a lane of one (`…:cron:<id>`) or a legacy key. */
    chat: z.string().min(1).max(512),
    /** The sender's user id in that chat; for private chats defaults to the chat's user. */
    sender: z
      .string()
      .regex(/^[^\s:]{1,128}$/, "must be a user id without spaces or ':'")
      .optional(),
    name: z.string().min(1).max(64).optional(),
    text: z.string().min(1).max(4000),
  })
  .strict();

export const contextRoutes = new Hono<AppEnv>().post("/preview", jsonBody(PreviewSchema), async (c) => {
  const body = c.req.valid("json");
  const session = parseSessionKey(body.chat);
  if (!session.ok) return problem(c, { kind: "invalid", field: "chat", reason: session.error.reason });
  const address = session.value.address;
  const chatKey = chatKeyOf(address);
  const senderId =
    body.sender ??
    (address.targetType === "private" || address.targetType === "dm" ? address.targetId : null);
  const account = senderId === null ? null : accountKey(address.channel, senderId);
  if (account && !account.ok)
    return problem(c, { kind: "invalid", field: "sender", reason: account.error.reason });
  const preview = await chatSession(c.env, chatKey).preview({
    chat: {
      key: chatKey,
      channel: address.channel,
      targetType: address.targetType,
      targetId: address.targetId,
    },
    session: body.chat,
    sender:
      senderId && account?.ok
        ? { userId: senderId, account: account.value, displayName: body.name ?? null }
        : null,
    text: body.text,
  });
  return c.json(preview);
});
