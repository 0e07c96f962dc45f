/** The admin API's read-only views: the audit log, model usage, and the counts and sizes of what is stored. */
import { Hono } from "hono";
import { z } from "zod";
import { adminStats, auditLog } from "../../composition/admin-services";
import { spendToday } from "../../composition/spend-ledger";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { validate } from "./zod-problem";

const DAY_MS = 86_400_000;

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

/** Midnight UTC `days - 1` days ago: the first day of a window that ends today. */
export const windowStart = (now: number, days: number) =>
  Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;

export const insightsRoutes = new Hono<AppEnv>()
  .get("/audit", async (c) => {
    const q = validate(AuditQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return c.json({ entries: await auditLog(c.env).list(q.value) });
  })
  .get("/usage", async (c) => {
    const q = validate(UsageQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    const now = Date.now();
    const [usage, spend] = await Promise.all([
      adminStats(c.env).usage(windowStart(now, q.value.days), now + 1, q.value.chat),
      spendToday(c.env, now, q.value.chat),
    ]);
    return c.json({ ...usage, spend });
  })
  .get("/stats", async (c) => {
    const q = validate(StatsQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return c.json(await adminStats(c.env).stats(windowStart(Date.now(), q.value.days)));
  });
