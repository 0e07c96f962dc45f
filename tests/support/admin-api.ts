/** The admin JSON API as an owner's tools call it, and the audit log it writes. */
import { env, exports } from "cloudflare:workers";
import { ADMIN_TOKEN } from "./admin-session";

export type AdminCall = { method?: string; body?: unknown; headers?: Record<string, string> };

/** A request to /api with the admin token and a JSON body; a header of the call overrides the token. */
export function adminApi(path: string, init: AdminCall = {}): Promise<Response> {
  return exports.default.fetch(
    new Request(`https://bot.test/api${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        "content-type": "application/json",
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
}

/** The same route asked with no credentials at all (a POST with an empty JSON body). */
export const withoutAdmin = (method: "GET" | "POST", path: string): Promise<Response> =>
  adminApi(path, { method, headers: { authorization: "" }, body: method === "POST" ? {} : undefined });

/** How many audit rows there are whose action starts with `actionPrefix` (all of them by default). */
export async function auditCount(actionPrefix = ""): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE action LIKE ?")
    .bind(`${actionPrefix}%`)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
