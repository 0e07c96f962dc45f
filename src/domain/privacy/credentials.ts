/**
 * The one credential detector (issue: passwords and keys must never be stored or sent to
 * the model provider). Three rule families, in credential-formats.ts (provider key and
 * token formats, headers, cookies, URLs), credential-phrases.ts (passwords and codes said
 * in words, Chinese and English) and credential-entropy.ts (long random tokens).
 *
 * Every path that stores or forwards text uses this module: memory writes refuse or drop
 * what `containsCredential` flags, and the message log, raw_json, the chat object's inbox,
 * recent turns and the bot's own replies keep `maskCredentials` of the text.
 */

import { findRandomTokens } from "./credential-entropy";
import { FORMAT_RULES } from "./credential-formats";
import { findPhraseCredentials } from "./credential-phrases";

/** What replaces each secret value; the surrounding words stay. */
export const CREDENTIAL_MASK = "[已隐藏的凭据]";

export type CredentialSpan = {
  /** UTF-16 offsets of the secret value in the text, end exclusive. */
  readonly start: number;
  readonly end: number;
  /** Which rule found it (`openai`, `jwt`, `password-phrase`, `high-entropy`, …). */
  readonly rule: string;
};

/** Every secret value in `text`, sorted, overlapping findings merged into one span. */
export function findCredentials(text: string): CredentialSpan[] {
  if (text.length === 0) return [];
  const found: CredentialSpan[] = [];
  for (const r of FORMAT_RULES) {
    for (const m of text.matchAll(r.pattern)) {
      const secret = m.indices?.groups?.secret;
      const [start, end] = secret ?? [m.index, m.index + m[0].length];
      if (end > start) found.push({ start, end, rule: r.id });
    }
  }
  for (const p of findPhraseCredentials(text)) found.push({ start: p.start, end: p.end, rule: p.id });
  for (const t of findRandomTokens(text)) found.push({ ...t, rule: "high-entropy" });
  return merge(found.filter((s) => !isMask(text, s)));
}

export function containsCredential(text: string): boolean {
  return findCredentials(text).length > 0;
}

/** `text` with each secret value replaced by CREDENTIAL_MASK. Idempotent. */
export function maskCredentials(text: string): string {
  return maskRanges(text, findCredentials(text));
}

/** A stretch of a text by UTF-16 offsets, end exclusive. */
export type TextRange = { readonly start: number; readonly end: number };

/**
 * `text` with each range replaced by CREDENTIAL_MASK, overlapping ones as one: for secret
 * values found by reading `text` together with text around it (a message cut into pieces).
 */
export function maskRanges(text: string, ranges: readonly TextRange[]): string {
  const spans = merge(ranges.filter((r) => r.end > r.start));
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + CREDENTIAL_MASK;
    at = s.end;
  }
  return out + text.slice(at);
}

/** A span that is an earlier mask (a rule reading `Cookie: [已隐藏的凭据]`) is no finding. */
function isMask(text: string, span: CredentialSpan): boolean {
  return text.slice(span.start, span.end).trim() === CREDENTIAL_MASK;
}

function merge<T extends TextRange>(spans: T[]): T[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: T[] = [];
  for (const s of spans) {
    const last = out.at(-1);
    if (last && s.start <= last.end) {
      if (s.end > last.end) out[out.length - 1] = { ...last, end: s.end };
    } else out.push(s);
  }
  return out;
}
