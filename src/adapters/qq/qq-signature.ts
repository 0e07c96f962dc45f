/**
 * Ed25519 signatures of the QQ official-bot platform (docs/qq-protocol.md#qq-signatures), on WebCrypto.
 *
 * The platform derives one key pair from the bot secret: the secret's UTF-8 bytes repeated
 * until there are at least 32, truncated to 32, form the RFC 8032 seed. It signs webhook
 * requests (`X-Signature-Timestamp` + raw body) with it, and expects the op 13 answer to be
 * signed with the same key.
 */

/** DER header of a PKCS#8 Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = fromHexStrict("302e020100300506032b657004220420");
const SEED_BYTES = 32;
const SIGNATURE_BYTES = 64;
/** Guards the cache against a caller that passes ever-new secrets; real deployments use one or two. */
const MAX_CACHED_SECRETS = 16;

type QqKeys = {
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly publicRaw: Uint8Array;
};

// Importing keys costs more than verifying a signature, and every webhook request needs the
// key, so keep the imported keys per secret for the isolate's lifetime. The promise is cached
// so that concurrent first requests share one import.
const KEYS = new Map<string, Promise<QqKeys>>();

/**
 * The 32-byte Ed25519 seed for a bot secret: the UTF-8 bytes repeated until ≥ 32, then the
 * first 32. (satori's `seed + seed.slice(0, 32 - len)` is wrong for secrets under 16 bytes.)
 * Throws on an empty secret, which is a configuration bug, not a bad request.
 */
export function qqSeed(secret: string): Uint8Array {
  const bytes = new TextEncoder().encode(secret);
  if (bytes.length === 0) throw new Error("QQ bot secret is empty");
  const seed = new Uint8Array(SEED_BYTES);
  for (let i = 0; i < SEED_BYTES; i++) seed[i] = bytes[i % bytes.length] ?? 0;
  return seed;
}

/** The raw 32-byte public key the platform's signatures verify against, for diagnostics and tests. */
export async function qqPublicKey(secret: string): Promise<Uint8Array> {
  return (await keysFor(secret)).publicRaw;
}

/**
 * Verifies a webhook signature over `timestamp` + `body` (the raw request bytes, never
 * re-serialised JSON: whitespace is signed). False for an empty timestamp, a signature that
 * is not 128 hex digits, or one whose top three bits of S are set (the platform's own
 * pre-check; such an S is never canonical). Bad input never throws; an empty secret does.
 */
export async function verifyQqSignature(input: {
  secret: string;
  signatureHex: string;
  timestamp: string;
  body: Uint8Array;
}): Promise<boolean> {
  if (input.timestamp.length === 0) return false;
  const signature = fromHex(input.signatureHex);
  if (signature?.length !== SIGNATURE_BYTES) return false;
  if (((signature[63] ?? 0) & 0xe0) !== 0) return false;
  const { publicKey } = await keysFor(input.secret);
  const message = concat(new TextEncoder().encode(input.timestamp), input.body);
  return crypto.subtle.verify("Ed25519", publicKey, signature, message);
}

/**
 * Signs `message` (a string is taken as UTF-8) exactly as the platform would: lowercase hex of
 * the 64-byte Ed25519 signature. Ed25519 is deterministic, so equal inputs give equal output.
 * Used for the op 13 answer and to sign simulated webhook events.
 */
export async function signQqMessage(secret: string, message: Uint8Array | string): Promise<string> {
  const bytes = typeof message === "string" ? new TextEncoder().encode(message) : message;
  const { privateKey } = await keysFor(secret);
  return toHex(new Uint8Array(await crypto.subtle.sign("Ed25519", privateKey, bytes)));
}

function keysFor(secret: string): Promise<QqKeys> {
  const cached = KEYS.get(secret);
  if (cached) return cached;
  if (KEYS.size >= MAX_CACHED_SECRETS) KEYS.clear();
  const keys = importKeys(secret);
  KEYS.set(secret, keys);
  // A failed import must not poison the cache for later requests.
  keys.catch(() => KEYS.delete(secret));
  return keys;
}

async function importKeys(secret: string): Promise<QqKeys> {
  const pkcs8 = concat(PKCS8_ED25519_PREFIX, qqSeed(secret));
  // Extractable only so the public half can be read back as JWK `x`; the key never leaves the isolate.
  const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, "Ed25519", true, ["sign"]);
  const jwk = (await crypto.subtle.exportKey("jwk", privateKey)) as JsonWebKey;
  if (typeof jwk.x !== "string") throw new Error("Ed25519 JWK export has no public key");
  const publicRaw = fromBase64Url(jwk.x);
  const publicKey = await crypto.subtle.importKey("raw", publicRaw, "Ed25519", false, ["verify"]);
  return { privateKey, publicKey, publicRaw };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Bytes of an even-length hex string (either case), or null when it is not one. */
export function fromHex(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function fromHexStrict(hex: string): Uint8Array {
  const bytes = fromHex(hex);
  if (!bytes) throw new Error(`not hex: ${hex}`);
  return bytes;
}

function fromBase64Url(text: string): Uint8Array {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "="));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
