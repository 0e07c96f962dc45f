/** The Migrations page: generate a plan, apply the ticked rows, roll back (CSRF checked by the guard). */
import { type Context, Hono } from "hono";
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
    "Migrations",
    <MigrationsPage plans={await plans.list(20)} plan={plan} csrf={(await pageContext(c)).csrf} {...extra} />,
    extra.error ? 400 : 200,
  );
}

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
      return migrationsPage(c, undefined, { error: "kind must be scope-migration or sensitivity-backfill" });
    const made = await c.get("services").migrations.create(kind);
    return back(c, made.id, `Generated a ${kind} plan with ${made.plan.entries.length} row(s).`);
  })
  .post("/plans/:id/apply", async (c) => {
    const id = c.req.param("id");
    if (!PLAN_ID.test(id)) return migrationsPage(c, undefined, { error: "id must be a plan id" });
    const form = await c.req.parseBody({ all: true });
    const ticked = ([] as unknown[])
      .concat(form.approve ?? [])
      .filter((v): v is string => typeof v === "string");
    const approve = ticked.map((nodeId) => {
      const to = form[`to:${nodeId}`];
      return { nodeId, ...(typeof to === "string" && to ? { to } : {}) };
    });
    const done = await c.get("services").migrations.apply(id, approve);
    if (!done.ok)
      return migrationsPage(c, id, {
        error:
          done.error.kind === "invalid"
            ? `${done.error.field} ${done.error.reason}`
            : `no ${done.error.what}`,
      });
    const a = done.value.plan.applied;
    return back(c, id, `Applied ${a?.nodeIds.length ?? 0} row(s); ${a?.skipped.length ?? 0} skipped.`);
  })
  .post("/plans/:id/rollback", async (c) => {
    const id = c.req.param("id");
    if (!PLAN_ID.test(id)) return migrationsPage(c, undefined, { error: "id must be a plan id" });
    const form = await c.req.parseBody();
    if (form.confirm !== id) return migrationsPage(c, id, { error: "Tick “sure” to roll back." });
    const done = await c.get("services").migrations.rollback(id);
    if (!done.ok)
      return migrationsPage(c, id, {
        error:
          done.error.kind === "invalid"
            ? `${done.error.field} ${done.error.reason}`
            : `no ${done.error.what}`,
      });
    return back(c, id, `Rolled back ${done.value.plan.applied?.rolledBack?.nodeIds.length ?? 0} row(s).`);
  });
