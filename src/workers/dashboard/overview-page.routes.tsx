/**
 * The overview page at /admin — counts, usage, spend, status — and the acknowledgement of an
 * open notice to the owner shown on it.
 */
import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { fillDays } from "./day-chart";
import { NoticesPanel } from "./notices-panel";
import { OverviewPage } from "./overview-page";
import { overviewStatus } from "./overview-status";
import { pageContext } from "./page-context";
import { PageNotices } from "./page-notices";
import { said, statusOf } from "./page-refusal";
import { render } from "./page-render";

const DAYS = 14;

/** The overview page: counts, usage, spend, status, and the open notices to the owner. */
async function overview(
  c: Context<AppEnv>,
  extra: { notice?: string | undefined; error?: string },
  status: 200 | 400 | 404 | 409 = 200,
) {
  const services = c.get("services");
  const insights = services.insights;
  const now = Date.now();
  const [window, counts, today, total, spend, state, notices, context] = await Promise.all([
    insights.window(DAYS, now),
    insights.stats(DAYS, now),
    insights.usage(1, undefined, now),
    insights.usage(DAYS, undefined, now),
    insights.spendToday(undefined, now),
    overviewStatus(c),
    services.notices.list(),
    pageContext(c),
  ]);
  return render(
    c,
    "/admin",
    c.get("i18n").t("nav.overview"),
    <>
      <PageNotices {...extra} />
      <OverviewPage
        notices={<NoticesPanel notices={notices} csrf={context.csrf} />}
        stats={counts}
        days={fillDays(window, counts.messagesByDay)}
        today={today.total}
        total={total.total}
        spend={spend}
        status={state}
      />
    </>,
    status,
  );
}

export const overviewPageRoutes = new Hono<AppEnv>()
  .get("/", (c) => overview(c, { ...(c.req.query("notice") ? { notice: c.req.query("notice") } : {}) }))
  .post("/notices/:id/ack", async (c) => {
    const done = await c.get("services").notices.acknowledge(c.req.param("id"));
    const t = c.get("i18n").t;
    if (!done.ok)
      return overview(
        c,
        { error: t("notices.ackFailed", { reason: said(done.error) }) },
        statusOf(done.error),
      );
    return c.redirect(`/admin?notice=${encodeURIComponent(t("notices.acked", { id: done.value.id }))}`, 303);
  });
