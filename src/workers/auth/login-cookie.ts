/**
 * The dashboard session: a cookie holding `payload.signature`, the payload being base64url
 * JSON `{ v, sid, iat, exp }` and the signature an HMAC over it with the key derived from
 * ADMIN_TOKEN. Stateless: nothing is stored, a forged or expired cookie is simply refused.
 */
import { base64url, fromBase64url, hmac, hmacMatches, loginKey } from "./login-key";

export const LOGIN_COOKIE = "akasha_session";
/** How long a login lasts. */
export const LOGIN_TTL_SECONDS = 12 * 60 * 60;

export type Login = { readonly sid: string; readonly iat: number; readonly exp: number };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export async function issueLogin(
  adminToken: string,
  nowMs: number,
): Promise<{ value: string; session: Login }> {
  const iat = Math.floor(nowMs / 1000);
  const session: Login = { sid: crypto.randomUUID(), iat, exp: iat + LOGIN_TTL_SECONDS };
  const payload = base64url(encoder.encode(JSON.stringify({ v: 1, ...session })));
  const signature = await hmac(await loginKey(adminToken), `session.${payload}`);
  return { value: `${payload}.${signature}`, session };
}

/** The session a cookie value carries, or null when it is malformed, forged or expired. */
export async function readLogin(adminToken: string, value: string, nowMs: number): Promise<Login | null> {
  const [payload, signature, extra] = value.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  if (!(await hmacMatches(await loginKey(adminToken), `session.${payload}`, signature))) return null;
  const bytes = fromBase64url(payload);
  if (!bytes) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(bytes));
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { v, sid, iat, exp } = parsed as Record<string, unknown>;
  if (v !== 1 || typeof sid !== "string" || typeof iat !== "number" || typeof exp !== "number") return null;
  if (exp * 1000 <= nowMs) return null;
  return { sid, iat, exp };
}
