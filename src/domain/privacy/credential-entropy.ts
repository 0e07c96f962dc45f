/**
 * Long random-looking tokens with no known prefix: a keyless API key, a session secret, an
 * AWS secret access key pasted alone. The test is gitleaks' generic-api-key idea (Shannon
 * entropy of the token) without its keyword requirement, tuned for chat:
 *
 * - at least 24 characters of `[A-Za-z0-9+/=_-]`, with a digit and a lower-case letter:
 *   keys without a known prefix are base62/base64, while upper-case-and-digit strings are
 *   ids people quote (QQ openids, order and tracking numbers, licence plates);
 * - entropy of at least 3.7 bits per character (random base62 of 24 characters is ≈ 4.2;
 *   English identifiers and pinyin stay below, most below 3.5);
 * - not mostly made of words (`getUserProfileById2`, `src/domain/memory/dreaming`);
 * - not hex only: commit hashes, SHA-256 digests and UUIDs are pasted on purpose in
 *   technical chat and are not secrets. A bare hex key is missed here (a keyword before
 *   it, "api key: …", still masks it);
 * - not inside a URL: links carry ids and signatures of public files; the secrets of a URL
 *   (`user:pass@`, `?token=`) are matched by the URL rules instead;
 * - not an SSH public key (`ssh-ed25519 AAAA…`): it is shared on purpose; nor a bcrypt hash;
 * - not the id of a chat or account key (`qq:user:…`, `onebot:group:…`), which the bot
 *   itself writes in its replies;
 * - not an id this system mints (a memory item `m_…`, a knowledge document or node `d_…` /
 *   `n_…`, an owner plan `plan-…`): the bot names them in its answers and its audit rows,
 *   and memory_forget takes them back, so a masked one would break what it refers to.
 */

import { SYSTEM_ID } from "./system-ids";
import { urlSpans } from "./url-spans";

export type EntropyMatch = { readonly start: number; readonly end: number };

const MIN_LENGTH = 24;
const MIN_BITS = 3.7;
/** `=` only as base64 padding at the end: `token=abc…` is a name and a value, not one token. */
const CANDIDATE = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{24,}={0,2}(?![A-Za-z0-9+/=_-])/g;

/** `qq:user:`, `qq:private:`, `onebot:group:` right before the token. */
const ADDRESS_PREFIX = /\b[a-z]{2,10}:[a-z]{2,10}:$/;

/** An SSH public key's type right before its base64: a public key, shared on purpose. */
const PUBLIC_KEY_TYPE =
  /(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)\s+$/;

/** A bcrypt hash's prefix (`$2a$10$`): a hash of a password, not one, discussed in technical chat. */
const BCRYPT = /\$2[abxy]?\$\d{2}\$$/;

/** Shannon entropy in bits per character. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Share of the token taken by runs of four or more letters in one case (words). */
function wordShare(token: string): number {
  let covered = 0;
  for (const m of token.matchAll(/[A-Z]?[a-z]{4,}|[A-Z]{5,}/g)) covered += m[0].length;
  return covered / token.length;
}

export function looksLikeRandomToken(token: string): boolean {
  if (token.length < MIN_LENGTH) return false;
  if (!/\d/.test(token) || !/[a-z]/.test(token)) return false;
  if (/^[0-9a-fA-F-]+$/.test(token)) return false;
  if (wordShare(token) > 0.4) return false;
  return shannonEntropy(token) >= MIN_BITS;
}

/**
 * Whether a token is one of the strings chosen above as no secret, whatever reads it: a chat or
 * account key's id, a public key, a bcrypt hash, an id this system mints. `before` is the text
 * right before the token.
 */
export function isNamedNonSecret(token: string, before: string): boolean {
  if (ADDRESS_PREFIX.test(before) || PUBLIC_KEY_TYPE.test(before) || BCRYPT.test(before)) return true;
  return SYSTEM_ID.test(token) || /^[a-z]{2,10}:[a-z]{2,10}:/i.test(token);
}

export function findRandomTokens(text: string): EntropyMatch[] {
  const urls = urlSpans(text);
  const inUrl = (start: number) => urls.some(([s, e]) => start >= s && start < e);
  const out: EntropyMatch[] = [];
  for (const m of text.matchAll(CANDIDATE)) {
    // Separators that end a sentence are not part of the token.
    const token = m[0].replace(/[_-]+$/, "");
    const before = text.slice(Math.max(0, m.index - 48), m.index);
    if (inUrl(m.index) || isNamedNonSecret(token, before) || !looksLikeRandomToken(token)) continue;
    out.push({ start: m.index, end: m.index + token.length });
  }
  return out;
}
