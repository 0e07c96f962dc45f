/**
 * Guards every /api and /admin route but the login page: an admin identity is required, and
 * a state-changing request made with ambient credentials must carry its CSRF token. Pages
 * redirect a visitor without credentials to the login; the API answers 401.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { CSRF_FIELD, CSRF_HEADER, csrfMatches } from "./csrf";
import { resolveAdmin } from "./resolve-admin";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

async function givenCsrf(c: Context<AppEnv>): Promise<string | null> {
  const header = c.req.header(CSRF_HEADER);
  if (header) return header;
  const type = c.req.header("content-type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    const form = await c.req.parseBody();
    const field = form[CSRF_FIELD];
    return typeof field === "string" ? field : null;
  }
  return null;
}

export function requireAdmin(kind: "api" | "page"): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const who = await resolveAdmin(c);
    if (!who.ok) {
      if (who.retryAfter !== undefined)
        return problem(
          c,
          { kind: "throttled", retryAfterSeconds: who.retryAfter, reason: who.reason },
          { "Retry-After": String(who.retryAfter) },
        );
      if (kind === "page" && SAFE_METHODS.has(c.req.method)) return c.redirect("/admin/login", 303);
      return problem(
        c,
        { kind: "unauthorized", reason: who.reason },
        { "WWW-Authenticate": 'Bearer realm="akasha"' },
      );
    }
    const binding = who.identity.csrfBinding;
    if (binding !== null && !SAFE_METHODS.has(c.req.method)) {
      const given = await givenCsrf(c);
      if (!given || !(await csrfMatches(c.get("config").adminToken, binding, given)))
        return problem(c, {
          kind: "forbidden",
          reason: "the CSRF token is missing or wrong; reload the page",
        });
    }
    c.set("admin", who.identity);
    await next();
  };
}
