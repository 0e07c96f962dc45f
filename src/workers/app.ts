/** The Hono app: webhooks, admin API, the dev wing (local mode only), health. */
import { Hono } from "hono";
import { readRuntimeConfig } from "../composition/common/runtime-config";
import type { AppEnv } from "./app-env";
import { adminDoorReady } from "./auth/admin-door";
import { loginRoutes, logoutRoutes } from "./auth/login.routes";
import { requireAdmin } from "./auth/require-admin";
import { dashboardRoutes } from "./dashboard/dashboard.routes";
import { switchLanguage, withLanguage } from "./dashboard/i18n/language";
import { dashboardSecurityHeaders } from "./dashboard/security-headers";
import { DASHBOARD_CSS } from "./dashboard/styles";
import { devApp } from "./dev/dev-app";
import { errorResponse, problem } from "./error-response";
import { adminRoutes } from "./routes/admin.routes";
import { backfillRoutes } from "./routes/backfill.routes";
import { contextRoutes } from "./routes/context.routes";
import { identityAdminRoutes } from "./routes/identity-admin.routes";
import { insightsRoutes } from "./routes/insights.routes";
import { knowledgeRoutes } from "./routes/knowledge.routes";
import { logCredentialsRoutes } from "./routes/log-credentials.routes";
import { logMigrationRoutes } from "./routes/log-migration.routes";
import { memoryAdminRoutes } from "./routes/memory-admin.routes";
import { migrationsRoutes } from "./routes/migrations.routes";
import { noticesRoutes } from "./routes/notices.routes";
import { ownerRoutes } from "./routes/owner.routes";
import { sessionsRoutes } from "./routes/sessions.routes";
import { webhookRoutes } from "./routes/webhook.routes";
import { withAdminServices } from "./with-admin-services";

export function createApp() {
  const app = new Hono<AppEnv>();
  // Before anything that reads config or storage, so that it stays cheap and answers even
  // when the deployment is misconfigured.
  app.get("/healthz", (c) => c.json({ ok: true }));
  app.use("*", async (c, next) => {
    c.set("config", readRuntimeConfig(c.env));
    await next();
  });
  app.route("/webhook", webhookRoutes);
  app.use("/api/*", adminDoorReady);
  app.use("/api/*", requireAdmin("api"), withAdminServices("api"));
  app.route("/api", adminRoutes);
  app.route("/api/context", contextRoutes);
  app.route("/api", knowledgeRoutes);
  app.route("/api/memory", memoryAdminRoutes);
  app.route("/api", insightsRoutes);
  app.route("/api", backfillRoutes);
  app.route("/api", noticesRoutes);
  app.route("/api", ownerRoutes);
  app.route("/api/identity", identityAdminRoutes);
  app.route("/api/migrations", migrationsRoutes);
  app.route("/api/log-migration", logMigrationRoutes);
  app.route("/api/log-credentials", logCredentialsRoutes);
  app.route("/api/sessions", sessionsRoutes);
  // Every dashboard response, the login page, the stylesheet and refusals included.
  app.use("/admin", dashboardSecurityHeaders);
  app.use("/admin/*", dashboardSecurityHeaders);
  // The stylesheet and the login page are the only things under /admin served without an
  // admin; they are registered before the guard, which therefore never sees them.
  app.get("/admin/app.css", (c) =>
    c.body(DASHBOARD_CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "max-age=300" }),
  );
  app.use("/admin", withLanguage);
  app.use("/admin/*", withLanguage);
  // Sets a display-only cookie and changes nothing on the server: no admin, no CSRF needed.
  app.get("/admin/lang/:lang", switchLanguage);
  app.use("/admin", adminDoorReady);
  app.use("/admin/*", adminDoorReady);
  app.route("/admin", loginRoutes);
  app.use("/admin", requireAdmin("page"), withAdminServices("dashboard"));
  app.use("/admin/*", requireAdmin("page"), withAdminServices("dashboard"));
  app.route("/admin", logoutRoutes);
  app.route("/admin", dashboardRoutes);
  // The dev wing exists only in local mode: outside it, 404 like any unknown path, not 403.
  app.use("/dev/*", async (c, next) => {
    if (c.get("config").mode !== "local") return c.notFound();
    await next();
  });
  app.route("/dev", devApp);
  app.notFound((c) => problem(c, { kind: "not-found", what: c.req.path }));
  app.onError(errorResponse);
  return app;
}
