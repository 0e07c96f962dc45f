/** `Authorization: Bearer <ADMIN_TOKEN>` on /api/*, compared in constant time. */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { problem } from "./error-response";

const encoder = new TextEncoder();

/** Hashing first gives equal-length inputs, so the comparison leaks neither content nor length. */
export async function tokensMatch(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(given)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  return crypto.subtle.timingSafeEqual(a, b);
}

export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match?.[1] || !(await tokensMatch(match[1], c.get("config").adminToken))) {
    return problem(
      c,
      { kind: "unauthorized", reason: "send Authorization: Bearer <ADMIN_TOKEN>" },
      { "WWW-Authenticate": 'Bearer realm="akasha"' },
    );
  }
  await next();
};
