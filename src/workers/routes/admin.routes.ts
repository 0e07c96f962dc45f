/** The admin JSON API: chat registry, message log and behaviour settings. Auth is applied by the app. */
import { Hono } from "hono";
import { chatRegistry } from "../../composition/chat-registry";
import { ConfigError } from "../../composition/runtime-config";
import { d1SettingsStore, readSettingsLayers } from "../../composition/settings-source";
import { parseChatKey } from "../../domain/chat/chat-address";
import { changedPaths, effectiveSettings, replaceStoredLayer } from "../../domain/config/settings-edit";
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
    const chats = await chatRegistry(c.env).list();
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
    const messages = await chatRegistry(c.env).messages(chat, limit.value, before.value);
    return c.json({ chat, messages });
  })
  .get("/settings", async (c) => {
    const read = await readSettingsLayers(c.env);
    const stored = read.stored.ok ? read.stored.value : null;
    const current = effectiveSettings({ var: read.var, stored });
    if (!current.ok) throw new ConfigError(`${current.error.field} ${current.error.reason}`);
    // A stored layer that does not validate is ignored whole by the loader; say so.
    const storedError = read.stored.ok ? current.value.storedError : read.stored.error;
    return c.json({
      effective: current.value.settings,
      stored,
      var: read.var,
      ...(storedError ? { storedError: { field: storedError.field, reason: storedError.reason } } : {}),
    });
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
    const read = await readSettingsLayers(c.env);
    const previous = read.stored.ok ? read.stored.value : null;
    const edit = replaceStoredLayer({ var: read.var, stored: previous }, parsed.value);
    if (!edit.ok) return problem(c, edit.error);
    const at = Date.now();
    const actor = c.get("admin").actor;
    const changed = changedPaths(previous ?? {}, edit.value.stored);
    await d1SettingsStore(c.env).write(JSON.stringify(edit.value.stored), actor, at, {
      dedupeKey: `config.replace:${at}:${crypto.randomUUID()}`,
      at,
      actor,
      action: "config.replace",
      chatKey: null,
      target: "settings",
      detail: { via: "api", changed: changed.length, paths: changed.join(", ").slice(0, 500) },
    });
    return c.json({ effective: edit.value.effective, stored: edit.value.stored });
  });
