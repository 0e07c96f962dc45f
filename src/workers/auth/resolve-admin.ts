/**
 * Who is calling an admin route, from one of three credentials:
 * - `Authorization: Bearer <ADMIN_TOKEN>` (the CLI, scripts): no ambient credential, no CSRF;
 *   presented at the admin door, whose throttle the login form shares (admin-door.ts);
 * - a verified Cloudflare Access token, when Access is configured: the Access identity is the
 *   actor, and then no session cookie is accepted (the browser must come through Access);
 * - the signed dashboard session cookie, when Access is not configured.
 * A credential that is present but wrong is refused, never passed over for another one.
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../app-env";
import { ACCESS_HEADER, readAccessConfig, verifyAccessJwt } from "./access-jwt";
import { presentAdminToken, throttledReason } from "./admin-door";
import { type AdminIdentity, SESSION_ACTOR, TOKEN_ACTOR } from "./admin-identity";
import { LOGIN_COOKIE, readLogin } from "./login-cookie";

export type IdentityResult =
  | { ok: true; identity: AdminIdentity }
  | { ok: false; reason: string; retryAfter?: number };

export async function resolveAdmin(c: Context<AppEnv>, nowMs = Date.now()): Promise<IdentityResult> {
  const adminToken = c.get("config").adminToken;
  // Read first: half an Access configuration must fail every request, the CLI's too.
  const access = readAccessConfig(c.env);
  const header = c.req.header("authorization");
  if (header !== undefined) {
    // Through the door's throttle, like the login form: a malformed header is a wrong token too.
    const door = await presentAdminToken(c, /^Bearer\s+(.+)$/i.exec(header.trim())?.[1] ?? null);
    if (door.kind === "throttled")
      return { ok: false, reason: throttledReason(door.retryAfter), retryAfter: door.retryAfter };
    if (door.kind === "wrong") return { ok: false, reason: "send Authorization: Bearer <ADMIN_TOKEN>" };
    return { ok: true, identity: { actor: TOKEN_ACTOR, via: "token", csrfBinding: null } };
  }
  if (access) {
    const jwt = c.req.header(ACCESS_HEADER);
    if (!jwt) return { ok: false, reason: "sign in through Cloudflare Access" };
    const who = await verifyAccessJwt(access, jwt);
    if (!who) return { ok: false, reason: "the Cloudflare Access token is not valid" };
    return {
      ok: true,
      identity: {
        actor: `access:${who.email ?? who.subject}`,
        via: "access",
        csrfBinding: `access:${who.subject}`,
      },
    };
  }
  const cookie = getCookie(c, LOGIN_COOKIE);
  if (cookie) {
    const session = await readLogin(adminToken, cookie, nowMs);
    if (session)
      return {
        ok: true,
        identity: { actor: SESSION_ACTOR, via: "session", csrfBinding: `session:${session.sid}` },
      };
    return { ok: false, reason: "the session has expired or is not valid; log in again" };
  }
  return { ok: false, reason: "log in at /admin/login or send Authorization: Bearer <ADMIN_TOKEN>" };
}
