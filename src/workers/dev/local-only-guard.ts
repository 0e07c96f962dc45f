/**
 * Local-only routes answer only the developer's own tools, never a web page the developer
 * has open: a page on any origin can POST to localhost. Every request must be JSON (a
 * cross-origin page cannot send that without a CORS preflight, which nothing here answers)
 * and must not come from another origin (`Origin`) or another site (`Sec-Fetch-Site`).
 * Hono's `csrf()` middleware is not enough: it lets every non-form content type through.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { isJsonRequest } from "../json-body";

/** Sec-Fetch-Site values of a request the developer made: the same page, or no page at all. */
const OWN = new Set(["same-origin", "none"]);

export const localOnlyGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== new URL(c.req.url).origin)
    return problem(c, { kind: "forbidden", reason: "cross-origin requests are refused" });
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && !OWN.has(site.toLowerCase()))
    return problem(c, { kind: "forbidden", reason: "cross-site requests are refused" });
  if (!isJsonRequest(c))
    return problem(c, { kind: "invalid", field: "content-type", reason: "must be application/json" });
  await next();
};
