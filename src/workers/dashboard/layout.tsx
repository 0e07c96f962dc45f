/** The page frame every dashboard page shares: navigation, the stylesheet, the logout form. */
import type { Child } from "hono/jsx";
import { CSRF_FIELD } from "../auth/csrf";

export const PAGES = [
  { path: "/admin", title: "Overview" },
  { path: "/admin/chats", title: "Chats" },
  { path: "/admin/memory", title: "Memory" },
  { path: "/admin/knowledge", title: "Knowledge" },
  { path: "/admin/identity", title: "Identity" },
  { path: "/admin/sessions", title: "Sessions" },
  { path: "/admin/settings", title: "Settings" },
  { path: "/admin/migrations", title: "Migrations" },
  { path: "/admin/audit", title: "Audit log" },
] as const;

export function Layout(props: {
  title: string;
  current?: string;
  csrf?: string | null;
  actor?: string;
  children: Child;
}) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Akasha`}</title>
        <link rel="stylesheet" href="/admin/app.css" />
      </head>
      <body>
        {props.current !== undefined && (
          <header>
            <strong>Akasha</strong>
            <nav>
              {PAGES.map((page) => (
                <a href={page.path} aria-current={page.path === props.current ? "page" : undefined}>
                  {page.title}
                </a>
              ))}
            </nav>
            <form method="post" action="/admin/logout" class="inline">
              {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
              <span class="muted">{props.actor} </span>
              <button type="submit" class="quiet">
                Log out
              </button>
            </form>
          </header>
        )}
        <main>{props.children}</main>
      </body>
    </html>
  );
}
