/**
 * Pages that show what an API route answers call the route itself (through the app, with the
 * admin token), so a page and the API cannot drift apart. Only for reads and for writes the
 * page has already checked its CSRF token for.
 */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";

export type ApiAnswer<T> = { ok: true; value: T } | { ok: false; error: string };

export async function callApi<T>(
  c: Context<AppEnv>,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<ApiAnswer<T>> {
  const res = await c.get("selfFetch")(
    new Request(new URL(`/api${path}`, c.req.url), {
      method,
      headers: {
        authorization: `Bearer ${c.get("config").adminToken}`,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const json = (await res.json()) as T & { field?: string; reason?: string; what?: string };
  if (res.ok) return { ok: true, value: json };
  const error = json.field
    ? `${json.field} ${json.reason ?? "is invalid"}`
    : (json.reason ?? (json.what ? `no ${json.what}` : `failed (${res.status})`));
  return { ok: false, error };
}
