/** The Migrations page: generate a plan, apply the ticked rows, roll back (CSRF checked by the guard). */
import { type Context, Hono } from "hono";
import type { DomainError } from "../../domain/kernel/result";
import type { AppEnv } from "../app-env";
import { MigrationsPage } from "./migrations-page";
import { pageContext } from "./page-context";
import { render } from "./page-render";

const PLAN_ID = /^plan-[0-9]+-[0-9a-f]{8}$/;

async function migrationsPage(
  c: Context<AppEnv>,
  id: string | undefined,
  extra: { notice?: string; error?: string } = {},
) {
  const plans = c.get("services").migrations;
  const plan = id && PLAN_ID.test(id) ? await plans.get(id) : null;
  return render(
    c,
    "/admin/migrations",
    c.get("i18n").t("nav.migrations"),
    <MigrationsPage
      plans={await plans.list(20)}
      plan={plan}
      logMigration={await c.get("services").logMigration.progress()}
      csrf={(await pageContext(c)).csrf}
      {...extra}
    />,
    extra.error ? 400 : 200,
  );
}

/** A refusal as one line: the field and reason as the domain says them, or what was not found. */
const said = (c: Context<AppEnv>, e: DomainError) =>
  e.kind === "invalid"
    ? `${e.field} ${e.reason}`
    : e.kind === "not-found"
      ? c.get("i18n").t("error.notFound", { what: e.what })
      : e.kind;

const back = (c: Context<AppEnv>, id: string, notice: string) =>
  c.redirect(`/admin/migrations?plan=${id}&notice=${encodeURIComponent(notice)}#plan`, 303);

export const migrationsPageRoutes = new Hono<AppEnv>()
  .get("/", (c) => {
    const notice = c.req.query("notice");
    return migrationsPage(c, c.req.query("plan"), notice ? { notice } : {});
  })
  .post("/plans", async (c) => {
    const form = await c.req.parseBody();
    const kind = form.kind;
    if (kind !== "scope-migration" && kind !== "sensitivity-backfill")
      return migrationsPage(c, undefined, { error: c.get("i18n").t("migrations.badKind") });
    const made = await c.get("services").migrations.create(kind);
    return back(
      c,
      made.id,
      c.get("i18n").t("migrations.generated", { kind, rows: made.plan.entries.length }),
    );
  })
  .post("/plans/:id/apply", async (c) => {
    const id = c.req.param("id");
    if (!PLAN_ID.test(id))
      return migrationsPage(c, undefined, { error: c.get("i18n").t("migrations.badId") });
    const form = await c.req.parseBody({ all: true });
    const ticked = ([] as unknown[])
      .concat(form.approve ?? [])
      .filter((v): v is string => typeof v === "string");
    const approve = ticked.map((nodeId) => {
      const to = form[`to:${nodeId}`];
      return { nodeId, ...(typeof to === "string" && to ? { to } : {}) };
    });
    const done = await c.get("services").migrations.apply(id, approve);
    if (!done.ok) return migrationsPage(c, id, { error: said(c, done.error) });
    const a = done.value.plan.applied;
    const counts = { applied: a?.nodeIds.length ?? 0, skipped: a?.skipped.length ?? 0 };
    return back(c, id, c.get("i18n").t("migrations.appliedNotice", counts));
  })
  .post("/plans/:id/rollback", async (c) => {
    const id = c.req.param("id");
    if (!PLAN_ID.test(id))
      return migrationsPage(c, undefined, { error: c.get("i18n").t("migrations.badId") });
    const form = await c.req.parseBody();
    if (form.confirm !== id) return migrationsPage(c, id, { error: c.get("i18n").t("migrations.tickSure") });
    const done = await c.get("services").migrations.rollback(id);
    if (!done.ok) return migrationsPage(c, id, { error: said(c, done.error) });
    const rows = done.value.plan.applied?.rolledBack?.nodeIds.length ?? 0;
    return back(c, id, c.get("i18n").t("migrations.rolledBackNotice", { rows }));
  });
