/**
 * GET/POST /admin/login and POST /admin/logout. The login compares the admin token in
 * constant time, refuses a client with too many recent failures before comparing anything,
 * and sets the signed session cookie. With Cloudflare Access configured there is no token
 * login: Access is the way in.
 */
import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { loginThrottle } from "../../composition/admin-services";
import { tokensMatch } from "../admin-auth";
import type { AppEnv } from "../app-env";
import { Layout } from "../dashboard/layout";
import { readAccessConfig } from "./access-jwt";
import { issueSession, SESSION_COOKIE, SESSION_TTL_SECONDS } from "./session-cookie";

const COOKIE_OPTIONS = { path: "/", httpOnly: true, secure: true, sameSite: "Strict" } as const;

function LoginPage(props: { error?: string; access?: boolean }) {
  return (
    <Layout title="Log in">
      <div class="login">
        <h1>Akasha admin</h1>
        {props.access ? (
          <p>This dashboard signs in through Cloudflare Access.</p>
        ) : (
          <form method="post" action="/admin/login">
            {props.error && (
              <p class="error" role="alert">
                {props.error}
              </p>
            )}
            <label>
              Admin token
              <input type="password" name="token" autocomplete="current-password" required autofocus />
            </label>
            <button type="submit">Log in</button>
          </form>
        )}
      </div>
    </Layout>
  );
}

/** The client a failure is counted against: the address Cloudflare saw, else one local bucket. */
const clientOf = (req: Request) => req.headers.get("cf-connecting-ip") ?? "local";

/** A form posted from another origin is refused even before the token is looked at. */
function sameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  return origin === null || origin === new URL(req.url).origin;
}

/** Login and logout; logout is mounted behind the admin guard, which checks its CSRF token. */
export const loginRoutes = new Hono<AppEnv>()
  .get("/login", (c) => c.html(<LoginPage access={readAccessConfig(c.env) !== null} />))
  .post("/login", async (c) => {
    if (readAccessConfig(c.env)) return c.html(<LoginPage access />, 403);
    if (!sameOrigin(c.req.raw)) return c.html(<LoginPage error="Cross-origin login refused." />, 403);
    const throttle = loginThrottle(c.env);
    const client = clientOf(c.req.raw);
    const now = Date.now();
    const wait = await throttle.retryAfter(client, now);
    if (wait !== null)
      return c.html(<LoginPage error={`Too many failed logins. Try again in ${wait} s.`} />, 429, {
        "Retry-After": String(wait),
      });
    const form = await c.req.parseBody();
    const token = typeof form.token === "string" ? form.token : "";
    if (!(await tokensMatch(token, c.get("config").adminToken))) {
      await throttle.recordFailure(client, now);
      return c.html(<LoginPage error="That is not the admin token." />, 401);
    }
    const { value } = await issueSession(c.get("config").adminToken, now);
    setCookie(c, SESSION_COOKIE, value, { ...COOKIE_OPTIONS, maxAge: SESSION_TTL_SECONDS });
    return c.redirect("/admin", 303);
  });

export const logoutRoutes = new Hono<AppEnv>().post("/logout", (c) => {
  deleteCookie(c, SESSION_COOKIE, COOKIE_OPTIONS);
  return c.redirect("/admin/login", 303);
});
