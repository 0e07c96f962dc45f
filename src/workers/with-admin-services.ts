/**
 * Builds the admin service layer once per /api or /admin request, after the admin guard has
 * named the actor, and hands it to the route as `c.get("services")`. The face is recorded in
 * audit rows as `via`: `api` for the JSON routes, `dashboard` for the pages.
 */
import type { MiddlewareHandler } from "hono";
import { adminServices } from "../composition/request/admin-services";
import type { AppEnv } from "./app-env";

export function withAdminServices(via: "api" | "dashboard"): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("services", adminServices(c.env, { actor: c.get("admin").actor, via, config: c.get("config") }));
    await next();
  };
}
