/** The page frame every dashboard page shares: navigation, the language switch, the stylesheet, the logout form. */
import type { Child } from "hono/jsx";
import { CSRF_FIELD } from "../auth/csrf";
import { type MessageKey, useLang, useT } from "./i18n/i18n";

export const PAGES: readonly { path: string; title: MessageKey }[] = [
  { path: "/admin", title: "nav.overview" },
  { path: "/admin/chats", title: "nav.chats" },
  { path: "/admin/memory", title: "nav.memory" },
  { path: "/admin/knowledge", title: "nav.knowledge" },
  { path: "/admin/identity", title: "nav.identity" },
  { path: "/admin/follow", title: "nav.follow" },
  { path: "/admin/admins", title: "nav.admins" },
  { path: "/admin/sessions", title: "nav.sessions" },
  { path: "/admin/settings", title: "nav.settings" },
  { path: "/admin/migrations", title: "nav.migrations" },
  { path: "/admin/credentials", title: "nav.credentials" },
  { path: "/admin/audit", title: "nav.audit" },
];

/** The link that shows the dashboard in the other language and comes back to this page. */
function LanguageSwitch(props: { back: string }) {
  const t = useT();
  const other = useLang() === "en" ? "zh-CN" : "en";
  return (
    <a
      href={`/admin/lang/${other}?next=${encodeURIComponent(props.back)}`}
      hreflang={other}
      lang={other}
      title={t("layout.switchToTitle")}
      id="language-switch"
    >
      {t("layout.switchTo")}
    </a>
  );
}

export function Layout(props: {
  title: string;
  current?: string;
  /** The path and query of this page, where the language switch returns to. */
  back?: string;
  csrf?: string | null;
  actor?: string;
  children: Child;
}) {
  const t = useT();
  const back = props.back ?? props.current ?? "/admin/login";
  return (
    <html lang={useLang()}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · ${t("app.name")}`}</title>
        <link rel="stylesheet" href="/admin/app.css" />
      </head>
      <body>
        {props.current !== undefined ? (
          <header>
            <strong>{t("app.name")}</strong>
            <nav>
              {PAGES.map((page) => (
                <a href={page.path} aria-current={page.path === props.current ? "page" : undefined}>
                  {t(page.title)}
                </a>
              ))}
            </nav>
            <LanguageSwitch back={back} />
            <form method="post" action="/admin/logout" class="inline">
              {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
              <span class="muted">{props.actor} </span>
              <button type="submit" class="quiet">
                {t("layout.logout")}
              </button>
            </form>
          </header>
        ) : (
          <header>
            <strong>{t("app.name")}</strong>
            <LanguageSwitch back={back} />
          </header>
        )}
        <main>{props.children}</main>
      </body>
    </html>
  );
}
