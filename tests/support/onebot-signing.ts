// Builds OneBot v11 HTTP POST requests the way NapCat / go-cqhttp send them, signed.
import { env } from "cloudflare:workers";
import { signOneBotBody } from "@src/adapters/onebot/onebot-signature";

/**
 * A POST of `bodyText` to `url` with `Content-Type: application/json` and
 * `X-Signature: sha1=…` over the exact bytes sent. `secret` defaults to the test Worker's
 * ONEBOT_SECRET. Adds `X-Self-ID` when the body is JSON with a `self_id`, as the implementations do.
 */
export async function signedOneBotRequest(
  url: string,
  bodyText: string,
  secret: string = env.ONEBOT_SECRET ?? "onebot-test-secret",
): Promise<Request> {
  const headers = new Headers({
    "Content-Type": "application/json",
    "X-Signature": await signOneBotBody(secret, bodyText),
  });
  const selfId = selfIdOf(bodyText);
  if (selfId !== null) headers.set("X-Self-ID", selfId);
  return new Request(url, { method: "POST", headers, body: bodyText });
}

function selfIdOf(bodyText: string): string | null {
  try {
    const body: unknown = JSON.parse(bodyText);
    const selfId = typeof body === "object" && body !== null ? Reflect.get(body, "self_id") : undefined;
    return typeof selfId === "number" || typeof selfId === "string" ? String(selfId) : null;
  } catch {
    return null;
  }
}
