/**
 * The admin JSON API: chat registry, message log and behaviour settings. Auth is applied by
 * the app. The settings carry their revision as an `ETag`; a `PUT` with `If-Match` saves only
 * while the stored layer is still that revision (409 otherwise), and without it only while it
 * is still what the `PUT` itself read.
 */
import { Hono } from "hono";
import { parseChatKey } from "../../domain/chat/chat-address";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { parseJsonBytes, readRawBody } from "../raw-body";

/** Largest settings document accepted by `PUT /api/settings`. */
export const MAX_SETTINGS_BYTES = 256 * 1024;

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
    const chats = await c.get("services").chats.list();
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
    // Read from the chat's own object; an unknown chat is a 404, an object that fails a 503.
    const messages = await c
      .get("services")
      .chats.messages(chat, { limit: limit.value, before: before.value });
    if (!messages.ok) return problem(c, messages.error);
    return c.json({ chat, messages: messages.value });
  })
  .get("/settings", async (c) => {
    const { revision, ...view } = await c.get("services").settings.read();
    return c.json(view, 200, { etag: `"${revision}"` });
  })
  .put("/settings", async (c) => {
    const body = await readRawBody(c.req.raw, MAX_SETTINGS_BYTES);
    if (!body.ok) return problem(c, { kind: "too-large", reason: body.reason });
    if (body.bytes.byteLength === 0)
      return problem(c, {
        kind: "invalid",
        field: "(body)",
        reason: "is empty: send the stored settings as a JSON object",
      });
    const parsed = parseJsonBytes(body.bytes);
    if (!parsed.ok) return problem(c, { kind: "invalid", field: "(body)", reason: parsed.reason });
    const ifMatch = c.req
      .header("if-match")
      ?.trim()
      .replace(/^(W\/)?"(.*)"$/, "$2");
    const saved = await c.get("services").settings.replace(parsed.value, ifMatch);
    if (!saved.ok) return problem(c, saved.error);
    return c.json({ effective: saved.value.effective, stored: saved.value.stored });
  });
