/**
 * OneBot v11 HTTP POST signatures. With a `secret` configured, NapCat and go-cqhttp send
 * `X-Signature: sha1=<hex HMAC-SHA1(secret, raw body)>` with every reported event.
 */
import { err, ok, type Result } from "../../domain/kernel/result";

export type OneBotSignatureRejection = {
  /** `no-secret`: nothing to verify against, which is a configuration problem, not the sender's. */
  readonly kind: "no-secret" | "missing" | "malformed" | "mismatch";
  readonly reason: string;
};

const HEADER = /^sha1=([0-9a-f]{40})$/i;
const encoder = new TextEncoder();

/** The `X-Signature` value for `body` (`sha1=` + lowercase hex), as a OneBot implementation sends it. */
export async function signOneBotBody(secret: string, body: Uint8Array | string): Promise<string> {
  const mac = await hmacSha1(secret, typeof body === "string" ? encoder.encode(body) : body);
  return `sha1=${toHex(mac)}`;
}

/**
 * Checks `X-Signature` against the raw body bytes, before anything is parsed. Hex case is
 * ignored; the digests are compared in constant time. Never throws.
 */
export async function verifyOneBotSignature(input: {
  readonly secret: string;
  readonly header: string | null | undefined;
  readonly body: Uint8Array;
}): Promise<Result<void, OneBotSignatureRejection>> {
  if (!input.secret) return reject("no-secret", "no OneBot secret is configured");
  if (input.header === null || input.header === undefined || input.header.trim() === "") {
    return reject("missing", "X-Signature header is missing");
  }
  const hex = HEADER.exec(input.header.trim())?.[1];
  if (hex === undefined) return reject("malformed", "X-Signature is not sha1=<40 hex digits>");
  const expected = new Uint8Array(await hmacSha1(input.secret, input.body));
  // The regex fixes the length at 20 bytes, the SHA-1 size: timingSafeEqual needs equal lengths.
  return crypto.subtle.timingSafeEqual(expected, fromHex(hex))
    ? ok(undefined)
    : reject("mismatch", "X-Signature does not match the body");
}

async function hmacSha1(secret: string, body: Uint8Array): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  return crypto.subtle.sign("HMAC", key, body);
}

function toHex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function reject(kind: OneBotSignatureRejection["kind"], reason: string) {
  return err<OneBotSignatureRejection>({ kind, reason });
}
