/** The admin API's read-only views: the audit log, model usage, and the counts and sizes of what is stored. */
import { Hono } from "hono";
import { z } from "zod";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";

/** A time as epoch milliseconds or an ISO 8601 date (`2026-12-01`, `2026-12-01T10:00:00Z`). */
const time = z.string().transform((raw, ctx) => {
  const ms = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isFinite(ms)) {
    ctx.addIssue({ code: "custom", message: "must be epoch milliseconds or an ISO 8601 date" });
    return z.NEVER;
  }
  return ms;
});
const shortText = z.string().trim().min(1).max(200);

export const AuditQuery = z
  .object({
    actor: shortText.optional(),
    action: shortText.optional(),
    chat: shortText.optional(),
    since: time.optional(),
    until: time.optional(),
    before: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

const UsageQuery = z
  .object({ days: z.coerce.number().int().min(1).max(366).default(30), chat: shortText.optional() })
  .strict();

const StatsQuery = z.object({ days: z.coerce.number().int().min(1).max(366).default(30) }).strict();

export const insightsRoutes = new Hono<AppEnv>()
  .get("/audit", async (c) => {
    const q = validate(AuditQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return c.json({ entries: await c.get("services").insights.audit(q.value) });
  })
  .get("/usage", async (c) => {
    const q = validate(UsageQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    const insights = c.get("services").insights;
    const now = Date.now();
    const [usage, spend] = await Promise.all([
      insights.usage(q.value.days, q.value.chat, now),
      insights.spendToday(q.value.chat, now),
    ]);
    return c.json({ ...usage, spend });
  })
  .get("/stats", async (c) => {
    const q = validate(StatsQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return c.json(await c.get("services").insights.stats(q.value.days));
  });
