/**
 * POST /api/context/preview (admin): exactly what the next turn of a chat would get for a
 * message — which handler answers, the mandatory block, and every recalled item with its
 * scope, kind, sensitivity, score and citation. Read-only; the chat object computes it with
 * the turn's own code.
 */
import { Hono } from "hono";
import { PreviewAsk } from "../admin-input/preview-input";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

export const contextRoutes = new Hono<AppEnv>().post("/preview", jsonBody(PreviewAsk), async (c) => {
  const preview = await c.get("services").chats.preview(c.req.valid("json"));
  return preview.ok ? c.json(preview.value) : problem(c, preview.error);
});
