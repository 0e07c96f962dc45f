/**
 * The one door for the admin secret. However the token is presented — the login form,
 * `Authorization: Bearer` on /api or /admin, the CLI (which sends the bearer) — it passes the
 * same throttle, counted per client in D1 `admin_login_failures`: a client with too many
 * recent failures is refused before anything is compared, the right token included, until its
 * window ends. Clients are told apart by the address the platform gives (`CF-Connecting-IP`),
 * so one client's failures never lock out another.
 */
import type { Context, MiddlewareHandler } from "hono";
import { loginThrottle } from "../../composition/common/edge-stores";
import { tokensMatch } from "../admin-auth";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";

/**
 * The client a failure is counted against: the address Cloudflare saw. An IPv6 client is its
 * /64, the block one subscriber is given, so that rotating addresses inside it buys no more
 * guesses. A request without the header (local runs, the app calling itself) is one bucket.
 */
export function clientOf(req: Request): string {
  const address = req.headers.get("cf-connecting-ip")?.trim();
  if (!address) return "local";
  if (!address.includes(":")) return address;
  const groups = expandIpv6(address);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : address;
}

/** The eight groups of an IPv6 address, or null when it is not one. */
function expandIpv6(address: string): string[] | null {
  const [head = "", tail, extra] = address.toLowerCase().split("::");
  if (extra !== undefined) return null;
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  return groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)) ? groups.map((g) => g.replace(/^0+(?=.)/, "")) : null;
}

/** What a throttled person reads: Chinese first, with the wait. */
export const throttledReason = (seconds: number) =>
  `管理口令错误次数过多，请 ${seconds} 秒后再试。Too many wrong admin tokens from this address; try again in ${seconds} s.`;

export type DoorAnswer =
  | { readonly kind: "open" | "wrong" }
  | { readonly kind: "throttled"; readonly retryAfter: number };

/**
 * Presents a token at the door: refused unseen while the client is throttled, compared in
 * constant time otherwise, and a wrong (or missing) token counts against the client.
 */
export async function presentAdminToken(c: Context<AppEnv>, given: string | null): Promise<DoorAnswer> {
  const throttle = loginThrottle(c.env);
  const client = clientOf(c.req.raw);
  const now = Date.now();
  const wait = await throttle.retryAfter(client, now);
  if (wait !== null) return { kind: "throttled", retryAfter: wait };
  if (given !== null && given !== "" && (await tokensMatch(given, c.get("config").adminToken)))
    return { kind: "open" };
  await throttle.recordFailure(client, now);
  return { kind: "wrong" };
}

/**
 * Before anything else on /api and /admin: in production a missing, short or published
 * ADMIN_TOKEN keeps the whole door shut with one answer that names the problem and the fix
 * (admin-token.ts). The webhooks never pass here, so they keep working.
 */
export const adminDoorReady: MiddlewareHandler<AppEnv> = async (c, next) => {
  const reason = c.get("config").adminTokenProblem;
  if (reason !== null) {
    console.error(JSON.stringify({ msg: "admin routes closed", path: c.req.path, reason }));
    return problem(c, { kind: "misconfigured", reason });
  }
  await next();
};
