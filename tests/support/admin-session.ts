/** Logs into the dashboard the way a browser does and returns what later requests need. */
import { exports } from "cloudflare:workers";
import { csrfToken } from "@src/workers/auth/csrf";
import { issueLogin, LOGIN_COOKIE } from "@src/workers/auth/login-cookie";

export const ADMIN_TOKEN = "test-admin-token";
export const ORIGIN = "https://bot.test";

export async function login(token = ADMIN_TOKEN, ip = "198.51.100.7") {
  return exports.default.fetch(
    new Request(`${ORIGIN}/admin/login`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "cf-connecting-ip": ip,
        origin: ORIGIN,
      },
      body: new URLSearchParams({ token }).toString(),
      redirect: "manual",
    }),
  );
}

/** A session cookie and its CSRF token, minted directly (as the login would). */
export async function session(now = Date.now()) {
  const { value, session } = await issueLogin(ADMIN_TOKEN, now);
  return {
    cookie: `${LOGIN_COOKIE}=${value}`,
    value,
    csrf: await csrfToken(ADMIN_TOKEN, `session:${session.sid}`),
  };
}

/**
 * A dashboard page as a logged-in browser asks for it: GET, or POST of `form` with the session's
 * CSRF token (left out with `csrf: false`, as a forged form would be). `form` as pairs sends a
 * field more than once, as ticked boxes of one name are. `cookie` is sent besides the session's.
 * Redirects are returned, not followed.
 */
export async function dashboardPage(
  path: string,
  form?: Record<string, string> | readonly (readonly [string, string])[],
  options: { csrf?: boolean; cookie?: string } = {},
) {
  const s = await session();
  const fields = form === undefined ? [] : Array.isArray(form) ? form : Object.entries(form);
  const body = form
    ? new URLSearchParams([...(options.csrf === false ? [] : [["_csrf", s.csrf]]), ...fields]).toString()
    : undefined;
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: form ? "POST" : "GET",
      headers: {
        cookie: [s.cookie, options.cookie].filter(Boolean).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body,
      redirect: "manual",
    }),
  );
}
