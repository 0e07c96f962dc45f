/** The admin JSON API: chat registry and message log. Auth is applied by the app. */
import { Hono } from "hono";
import { D1ChatRegistry } from "../../adapters/d1/chat-registry";
import { openDatabase } from "../../adapters/d1/database";
import { parseChatKey } from "../../domain/chat/chat-address";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";

function intParam(raw: string | undefined, name: string, fallback: number, min: number, max: number) {
  if (raw === undefined || raw === "") return { ok: true as const, value: fallback };
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    return {
      ok: false as const,
      error: { kind: "invalid" as const, field: name, reason: `must be an integer from ${min} to ${max}` },
    };
  }
  return { ok: true as const, value };
}

export const adminRoutes = new Hono<AppEnv>()
  .get("/chats", async (c) => {
    const chats = await new D1ChatRegistry(openDatabase(c.env.DB)).list();
    return c.json({ chats });
  })
  .get("/messages", async (c) => {
    const chat = c.req.query("chat");
    if (!chat)
      return problem(c, {
        kind: "invalid",
        field: "chat",
        reason: "is required (a chat key like qq:group:<id>)",
      });
    const key = parseChatKey(chat);
    if (!key.ok) return problem(c, { kind: "invalid", field: "chat", reason: key.error.reason });
    const limit = intParam(c.req.query("limit"), "limit", 50, 1, 500);
    if (!limit.ok) return problem(c, limit.error);
    const before = intParam(
      c.req.query("before"),
      "before",
      Number.MAX_SAFE_INTEGER,
      0,
      Number.MAX_SAFE_INTEGER,
    );
    if (!before.ok) return problem(c, before.error);
    const messages = await new D1ChatRegistry(openDatabase(c.env.DB)).messages(
      chat,
      limit.value,
      before.value,
    );
    return c.json({ chat, messages });
  });
