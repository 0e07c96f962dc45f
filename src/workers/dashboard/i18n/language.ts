/**
 * Which language a dashboard request is shown in: the browser's cookie (set by the switch link
 * in the layout), else the `dashboard.language` setting, else Simplified Chinese; and the
 * `calendar.timeZone` its times are shown in. The switch is a
 * GET that only sets a display cookie and redirects back: it changes no server state, so it
 * needs no CSRF token; every POST keeps its CSRF check.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { cachedSettingsSource } from "../../../composition/settings/settings-loader";
import { DEFAULT_CALENDAR_SETTINGS } from "../../../domain/config/calendar-settings";
import type { AppEnv } from "../../app-env";
import { DEFAULT_LANG, i18n, isLang, LANG_COOKIE, type Lang } from "./i18n";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The `dashboard.language` and `calendar.timeZone` settings. */
async function displaySettings(c: Context<AppEnv>): Promise<{ lang: Lang; timeZone: string }> {
  try {
    const settings = await cachedSettingsSource(c.env).current();
    const lang = isLang(settings.dashboard.language) ? settings.dashboard.language : DEFAULT_LANG;
    return { lang, timeZone: settings.calendar.timeZone };
  } catch {
    // A broken configuration has its own error page; the display falls back quietly.
    return { lang: DEFAULT_LANG, timeZone: DEFAULT_CALENDAR_SETTINGS.timeZone };
  }
}

export const withLanguage: MiddlewareHandler<AppEnv> = async (c, next) => {
  const chosen = getCookie(c, LANG_COOKIE);
  const display = await displaySettings(c);
  c.set("i18n", i18n(isLang(chosen) ? chosen : display.lang, display.timeZone));
  await next();
};

/** Only a dashboard path may be returned to: no open redirect through `next`. */
function backTo(next: string | undefined): string {
  return next && /^\/admin(?:[/?#]|$)/.test(next) && !next.startsWith("//") ? next : "/admin";
}

/** GET /admin/lang/:lang?next=… sets the display cookie and returns to the page. */
export function switchLanguage(c: Context<AppEnv>) {
  const lang = c.req.param("lang");
  if (!isLang(lang)) return c.text("unknown language", 404);
  setCookie(c, LANG_COOKIE, lang, {
    path: "/admin",
    sameSite: "Lax",
    secure: true,
    httpOnly: true,
    maxAge: YEAR_SECONDS,
  });
  return c.redirect(backTo(c.req.query("next")), 303);
}
