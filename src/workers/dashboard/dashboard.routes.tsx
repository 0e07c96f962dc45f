/**
 * The dashboard pages under /admin, server-rendered with hono/jsx; the admin guard (and its
 * CSRF check of every POST) runs before them. Pages read and change everything through the
 * request's admin services (`c.get("services")`), the same layer the JSON API is a face of,
 * with the same input schemas (admin-input/). Each page's routes are their own module,
 * mounted here.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { auditPageRoutes } from "./audit-page.routes";
import { chatsPageRoutes } from "./chats-page.routes";
import { credentialsPageRoutes } from "./credentials-page.routes";
import { identityPageRoutes } from "./identity-page.routes";
import { knowledgePageRoutes, uploadScript } from "./knowledge-page.routes";
import { memoryPageRoutes } from "./memory-page.routes";
import { migrationsPageRoutes } from "./migrations-page.routes";
import { overviewPageRoutes } from "./overview-page.routes";
import { ownerPageRoutes } from "./owner-pages.routes";
import { sessionsDashboardRoutes } from "./sessions-dashboard.routes";
import { settingsPageRoutes } from "./settings-page.routes";

export const dashboardRoutes = new Hono<AppEnv>()
  .route("/identity", identityPageRoutes)
  .route("/knowledge", knowledgePageRoutes)
  .get("/upload.js", uploadScript)
  .route("/migrations", migrationsPageRoutes)
  .route("/credentials", credentialsPageRoutes)
  .route("/sessions", sessionsDashboardRoutes)
  .route("/", ownerPageRoutes)
  .route("/", overviewPageRoutes)
  .route("/chats", chatsPageRoutes)
  .route("/memory", memoryPageRoutes)
  .route("/settings", settingsPageRoutes)
  .route("/audit", auditPageRoutes);
