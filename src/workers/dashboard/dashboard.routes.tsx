/** The dashboard pages under /admin, server-rendered; the admin guard runs before them. */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { Layout } from "./layout";
import { pageContext } from "./page-context";

export const dashboardRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const page = await pageContext(c);
  return c.html(
    <Layout title="Overview" current="/admin" csrf={page.csrf} actor={page.actor}>
      <h1>Overview</h1>
    </Layout>,
  );
});
