/** Renders a page body inside the shared layout, with the request's actor, CSRF token and language. */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { AppEnv } from "../app-env";
import { I18nContext } from "./i18n/i18n";
import { Layout } from "./layout";
import { pageContext } from "./page-context";

/** Wraps a whole document in the request's language, for the pages outside `render` (login). */
export function inLanguage(c: Context<AppEnv>, document: Child) {
  return <I18nContext.Provider value={c.get("i18n")}>{document}</I18nContext.Provider>;
}

/** `title` is already translated (`c.get("i18n").t(…)`), or a name such as a chat key. */
export async function render(
  c: Context<AppEnv>,
  path: string,
  title: string,
  body: Child,
  status: 200 | 400 | 404 | 409 | 422 | 503 = 200,
) {
  const page = await pageContext(c);
  const url = new URL(c.req.url);
  return c.html(
    inLanguage(
      c,
      <Layout
        title={title}
        current={path}
        back={`${url.pathname}${url.search}`}
        csrf={page.csrf}
        actor={page.actor}
      >
        {body}
      </Layout>,
    ),
    status,
  );
}
