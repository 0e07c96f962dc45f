/** Renders a page body inside the shared layout, with the request's actor and CSRF token. */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { AppEnv } from "../app-env";
import { Layout } from "./layout";
import { pageContext } from "./page-context";

export async function render(
  c: Context<AppEnv>,
  path: string,
  title: string,
  body: Child,
  status: 200 | 400 | 404 | 409 | 422 = 200,
) {
  const page = await pageContext(c);
  return c.html(
    <Layout title={title} current={path} csrf={page.csrf} actor={page.actor}>
      {body}
    </Layout>,
    status,
  );
}
