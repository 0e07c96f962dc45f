/**
 * Authentication of QQ webhook requests (docs/qq-protocol.md#request-order) and the op 13 URL-validation answer
 * (docs/qq-protocol.md#qq-url-validation-op-13). Both run before anything else looks at the body.
 */
import { err, ok, type Result } from "../../domain/kernel/result";
import { QqValidationSchema } from "./qq-event.schema";
import { signQqMessage, verifyQqSignature } from "./qq-signature";

/**
 * Our replay window, not the platform's: the platform documents none and no SDK checks one.
 * A captured, correctly signed request could otherwise be replayed forever; event-id dedupe
 * only covers the dedupe record's lifetime. Retry timestamps are undocumented, so the window
 * is generous (docs/qq-protocol.md#verifying-a-request).
 */
export const QQ_DEFAULT_MAX_SKEW_SECONDS = 600;

export type QqRequestRejection = { readonly status: 401 | 403; readonly reason: string };

/** Unix seconds as decimal digits; 15 digits is far beyond any real clock and keeps Number exact. */
const TIMESTAMP = /^[0-9]{1,15}$/;

/**
 * Decides whether a webhook request comes from the platform for this bot. In order:
 * `X-Bot-Appid` must equal `appId` (403 `appid mismatch`); `X-Signature-Ed25519` and
 * `X-Signature-Timestamp` must be present (401 `missing signature`) and the timestamp all
 * digits (401 `malformed timestamp`); the signature must verify over timestamp + raw `body`
 * (401 `bad signature`); the timestamp must lie within ±`maxSkewSeconds` of `nowMs`
 * (401 `stale timestamp`). Freshness is checked after the signature, so `stale timestamp`
 * always means a genuine but old request — a clock problem or a replay, not a forgery.
 * Header names are case-insensitive (`Headers` normalizes them). The reason is for logs only:
 * the caller answers with an empty body.
 */
export async function checkQqRequest(input: {
  appId: string;
  secret: string;
  headers: Headers;
  body: Uint8Array;
  nowMs: number;
  maxSkewSeconds: number;
}): Promise<Result<{ timestamp: string }, QqRequestRejection>> {
  const { headers } = input;
  if (headers.get("x-bot-appid")?.trim() !== input.appId) {
    return err({ status: 403, reason: "appid mismatch" });
  }
  const signatureHex = headers.get("x-signature-ed25519")?.trim() ?? "";
  const timestamp = headers.get("x-signature-timestamp")?.trim() ?? "";
  if (signatureHex === "" || timestamp === "") return err({ status: 401, reason: "missing signature" });
  if (!TIMESTAMP.test(timestamp)) return err({ status: 401, reason: "malformed timestamp" });

  const verified = await verifyQqSignature({
    secret: input.secret,
    signatureHex,
    timestamp,
    body: input.body,
  });
  if (!verified) return err({ status: 401, reason: "bad signature" });

  const skewSeconds = Math.abs(input.nowMs / 1000 - Number(timestamp));
  if (skewSeconds > input.maxSkewSeconds) return err({ status: 401, reason: "stale timestamp" });
  return ok({ timestamp });
}

/** Body of the op 13 answer; sent as JSON with no `op` field (docs/qq-protocol.md#qq-url-validation-op-13). */
export type QqValidationAnswer = { readonly plain_token: string; readonly signature: string };

const PLAIN_TOKEN = /^[A-Za-z0-9]{1,64}$/;
const EVENT_TS = /^[0-9]{1,20}$/;

/**
 * Answers the op 13 challenge `d`: signs `event_ts` + `plain_token` with the bot key and
 * echoes the token. Call it only for a request that passed {@link checkQqRequest}.
 *
 * Defence in depth (docs/qq-protocol.md#request-order): the same key and concatenation rule sign dispatches, so a
 * bot that signs any challenge is a signing oracle for forged events. A forged dispatch body
 * contains `{`, so answering only for a digits-only `event_ts` (a number is taken as its
 * decimal text) and a short alphanumeric `plain_token` leaves nothing worth forging.
 */
export async function answerValidation(
  d: unknown,
  secret: string,
): Promise<Result<QqValidationAnswer, { reason: string }>> {
  const parsed = QqValidationSchema.safeParse(d);
  if (!parsed.success) return err({ reason: "op 13 payload has no plain_token/event_ts" });
  const { plain_token, event_ts } = parsed.data;
  const eventTs = typeof event_ts === "number" ? numberText(event_ts) : event_ts;
  if (eventTs === null || !EVENT_TS.test(eventTs)) return err({ reason: "event_ts is not decimal digits" });
  if (!PLAIN_TOKEN.test(plain_token)) return err({ reason: "plain_token is not 1–64 letters or digits" });
  return ok({ plain_token, signature: await signQqMessage(secret, `${eventTs}${plain_token}`) });
}

/** Decimal text of a non-negative integer; null for anything `String()` would not print as digits. */
function numberText(value: number): string | null {
  return Number.isSafeInteger(value) && value >= 0 ? String(value) : null;
}
