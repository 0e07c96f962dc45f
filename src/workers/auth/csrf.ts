/**
 * Session-bound CSRF tokens: HMAC of the session's id (or the Access subject), so a token is
 * valid only with the session it was rendered for and nothing needs storing. Every
 * state-changing request made with ambient credentials (the session cookie, or the Access
 * header the edge adds from its cookie) must carry it as the `_csrf` form field or the
 * `X-CSRF-Token` header. Bearer-token requests carry no ambient credential and need none.
 */
import { hmac, hmacMatches, loginKey } from "./login-key";

export const CSRF_HEADER = "x-csrf-token";
export const CSRF_FIELD = "_csrf";

export async function csrfToken(adminToken: string, binding: string): Promise<string> {
  return hmac(await loginKey(adminToken), `csrf.${binding}`);
}

export async function csrfMatches(adminToken: string, binding: string, given: string): Promise<boolean> {
  return hmacMatches(await loginKey(adminToken), `csrf.${binding}`, given);
}
