/** What every dashboard page needs from the request: the actor shown and the CSRF token of its forms. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { csrfToken } from "../auth/csrf";

export type PageContext = { readonly actor: string; readonly csrf: string | null };

export async function pageContext(c: Context<AppEnv>): Promise<PageContext> {
  const admin = c.get("admin");
  const csrf = admin.csrfBinding ? await csrfToken(c.get("config").adminToken, admin.csrfBinding) : null;
  return { actor: admin.actor, csrf };
}
