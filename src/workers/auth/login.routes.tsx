/**
 * GET/POST /admin/login and POST /admin/logout. The login presents the token at the admin
 * door (admin-door.ts: constant-time comparison behind the per-client throttle the bearer
 * shares) and sets the signed session cookie. With Cloudflare Access configured there is no token
 * login: Access is the way in.
 */
import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../app-env";
import { useT } from "../dashboard/i18n/i18n";
import { Layout } from "../dashboard/layout";
import { inLanguage } from "../dashboard/page-render";
import { readAccessConfig } from "./access-jwt";
import { presentAdminToken, throttledReason } from "./admin-door";
import { issueLogin, LOGIN_COOKIE, LOGIN_TTL_SECONDS } from "./login-cookie";

const COOKIE_OPTIONS = { path: "/", httpOnly: true, secure: true, sameSite: "Strict" } as const;

function LoginPage(props: { error?: string; access?: boolean }) {
  const t = useT();
  return (
    <Layout title={t("login.title")}>
      <div class="login">
        <h1>{t("login.heading")}</h1>
        {props.access ? (
          <p>{t("login.access")}</p>
        ) : (
          <form method="post" action="/admin/login">
            {props.error && (
              <p class="error" role="alert">
                {props.error}
              </p>
            )}
            <label>
              {t("login.token")}
              <input type="password" name="token" autocomplete="current-password" required autofocus />
            </label>
            <button type="submit">{t("login.submit")}</button>
          </form>
        )}
      </div>
    </Layout>
  );
}

/** A form posted from another origin is refused even before the token is looked at. */
function sameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  return origin === null || origin === new URL(req.url).origin;
}

/** Login and logout; logout is mounted behind the admin guard, which checks its CSRF token. */
export const loginRoutes = new Hono<AppEnv>()
  .get("/login", (c) => c.html(inLanguage(c, <LoginPage access={readAccessConfig(c.env) !== null} />)))
  .post("/login", async (c) => {
    if (readAccessConfig(c.env)) return c.html(inLanguage(c, <LoginPage access />), 403);
    if (!sameOrigin(c.req.raw))
      return c.html(inLanguage(c, <LoginPage error={c.get("i18n").t("login.crossOrigin")} />), 403);
    const form = await c.req.parseBody();
    const door = await presentAdminToken(c, typeof form.token === "string" ? form.token : null);
    if (door.kind === "throttled")
      return c.html(inLanguage(c, <LoginPage error={throttledReason(door.retryAfter)} />), 429, {
        "Retry-After": String(door.retryAfter),
      });
    if (door.kind === "wrong")
      return c.html(inLanguage(c, <LoginPage error={c.get("i18n").t("login.wrong")} />), 401);
    const { value } = await issueLogin(c.get("config").adminToken, Date.now());
    setCookie(c, LOGIN_COOKIE, value, { ...COOKIE_OPTIONS, maxAge: LOGIN_TTL_SECONDS });
    return c.redirect("/admin", 303);
  });

export const logoutRoutes = new Hono<AppEnv>().post("/logout", (c) => {
  deleteCookie(c, LOGIN_COOKIE, COOKIE_OPTIONS);
  return c.redirect("/admin/login", 303);
});
