/**
 * The first admin of a fresh deployment (docs/identity.md#the-first-admin): while no admin is
 * declared, `npm run akasha -- admins claim` issues a one-time code and the owner sends
 * `/claim <code>` to the bot in a private chat. The code is a credential: only its SHA-256
 * digest is stored, the code has a format the credential detector masks wherever it is said
 * (credential-formats.ts), and the digest is taken from the message before it is masked
 * (mask-inbound-event.ts), so the turn never sees the code either.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** How long an issued code stays valid. */
export const CLAIM_CODE_TTL_MS = 10 * 60 * 1000;
/** Random bytes in a code: 120 bits, far beyond guessing within its lifetime. */
export const CLAIM_CODE_BYTES = 15;
/** `akc_` and 24 base32 characters; the credential detector knows the prefix. */
export const CLAIM_CODE_PREFIX = "akc_";
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
const CODE = /^akc_[a-z2-7]{24}$/;

/** The code for `random` (CLAIM_CODE_BYTES bytes from a CSPRNG), lower-case base32. */
export function formatClaimCode(random: Uint8Array): string {
  if (random.length !== CLAIM_CODE_BYTES)
    throw new Error(`a claim code takes ${CLAIM_CODE_BYTES} random bytes`);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of random) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return CLAIM_CODE_PREFIX + out;
}

/** The stored form of a code: SHA-256 of its canonical (lower-case) text, hex. */
export function claimDigest(code: string): string {
  return bytesToHex(sha256(utf8ToBytes(code.trim().toLowerCase())));
}

/**
 * The digest of the code a `/claim <code>` message carries, or null when the message is not
 * `/claim` or its argument is not a well-formed code. Read before the text is masked.
 */
export function claimDigestIn(text: string): string | null {
  // The command parser's reading (agent/command.ts), which identity code may not import.
  const match = /^(?:@\S+\s*)*\/claim(?:\s+(\S+))?/iu.exec(text.normalize("NFKC").trim());
  const code = match?.[1]?.toLowerCase() ?? "";
  return CODE.test(code) ? claimDigest(code) : null;
}

/** What became of a code presented with `/claim`. */
export type ClaimRedemption = "redeemed" | "unknown" | "expired" | "used" | "revoked";

/** Issued codes, by digest. D1 `admin_claims` in production. */
export interface AdminClaims {
  /** Stores a new code's digest; every code still pending is revoked (one live code at a time). */
  issue(input: { digest: string; at: number; expiresAt: number }): Promise<void>;
  /** Marks the code used by `account` if it is pending and not expired; says why not otherwise. */
  redeem(input: { digest: string; at: number; account: string }): Promise<ClaimRedemption>;
  /** Revokes a pending code (it was said where others read it); false when none was pending. */
  revoke(input: { digest: string; at: number }): Promise<boolean>;
}
