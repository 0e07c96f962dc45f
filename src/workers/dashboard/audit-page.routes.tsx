/** The Audit page at /admin/audit: the latest audit rows, filtered by actor, action, chat and days. */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { AuditPage } from "./audit-page";
import { dayRange } from "./format";
import { render } from "./page-render";

export const auditPageRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const q = c.req.query();
  const { timeZone } = c.get("i18n");
  const from = dayRange(q.from, timeZone)?.start;
  const until = dayRange(q.until, timeZone)?.end;
  const entries = await c.get("services").insights.audit({
    limit: 200,
    ...(q.actor ? { actor: q.actor } : {}),
    ...(q.action ? { action: q.action } : {}),
    ...(q.chat ? { chat: q.chat } : {}),
    ...(from !== undefined ? { since: from } : {}),
    ...(until !== undefined ? { until } : {}),
  });
  return render(c, "/admin/audit", c.get("i18n").t("nav.audit"), <AuditPage filters={q} entries={entries} />);
});
