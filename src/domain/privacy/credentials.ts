/**
 * The one credential detector (issue: passwords and keys must never be stored or sent to
 * the model provider). Four rule families, in credential-formats.ts (provider key and
 * token formats, headers, cookies, URLs), credential-phrases.ts (passwords and codes said
 * in words, Chinese and English, with credential-phrase-forms.ts, credential-sentence-values.ts,
 * credential-described-values.ts and credential-lock-values.ts for the other ways people say
 * them), credential-command-lines.ts, credential-command-snippets.ts and
 * credential-game-commands.ts (a command's password flags, SQL and redis configuration, a game
 * server's sign-in), credential-entropy.ts (long random tokens) and seed-phrase.ts (wallet seed phrases). They read the text as detection-text.ts folds it —
 * full-width letters, zero-width characters, QQ faces and emoji between keyword and value,
 * traditional characters — and every finding is mapped back to the text as written.
 *
 * Personal numbers (ID, bank card, mobile: personal-data.ts) are found beside them by
 * `findSensitiveData`, masked with their own mask.
 *
 * Every path that stores or forwards text uses this module: memory writes refuse or drop
 * what `containsCredential` flags, and the message log, raw_json, the chat object's inbox,
 * recent turns and the bot's own replies keep `maskCredentials` of the text.
 */

import { type DetectionText, detectionText, originalSpan, type Span } from "../text/detection-text";
import { findCommandLineValues } from "./credential-command-lines";
import { findSnippetValues } from "./credential-command-snippets";
import { findDescribedValues } from "./credential-described-values";
import { findRandomTokens } from "./credential-entropy";
import { FORMAT_RULES } from "./credential-formats";
import { findSignInValues } from "./credential-game-commands";
import { readHanCredentialValues } from "./credential-han-reader";
import { findLaidOutValues } from "./credential-layouts";
import { findLockValues } from "./credential-lock-values";
import { findPhraseForms } from "./credential-phrase-forms";
import { findPhraseCredentials } from "./credential-phrases";
import { readCredentialValues } from "./credential-reader";
import { findSecurityAnswers } from "./credential-security-answers";
import { findSentenceValues } from "./credential-sentence-values";
import { findPersonalData, PERSONAL_DATA_MASK } from "./personal-data";
import { findSeedPhrases } from "./seed-phrase";
import { systemIdSpans } from "./system-ids";

/** What replaces each secret value; the surrounding words stay. */
export const CREDENTIAL_MASK = "[已隐藏的凭据]";

export type CredentialSpan = {
  /** UTF-16 offsets of the secret value in the text, end exclusive. */
  readonly start: number;
  readonly end: number;
  /** Which rule found it (`openai`, `jwt`, `password-phrase`, `high-entropy`, …). */
  readonly rule: string;
  /** What replaces it; CREDENTIAL_MASK when absent. */
  readonly mask?: string;
};

/** Every secret value in `text`, sorted, overlapping findings merged into one span. */
export function findCredentials(text: string): CredentialSpan[] {
  if (text.length === 0) return [];
  const t = detectionText(text);
  return merge(outsideSystemIds(t, secretsIn(t)).filter((s) => !isMask(text, s)));
}

/**
 * The secrets of a detection text, as spans of the original text; with `reader`, also the
 * values the trained reader reads where no rule found one.
 */
function secretsIn(t: DetectionText, reader = false): CredentialSpan[] {
  const read = t.text;
  const found: CredentialSpan[] = [];
  const ruled: Span[] = [];
  const add = (start: number, end: number, rule: string) => {
    if (end <= start) return;
    found.push({ ...originalSpan(t, { start, end }), rule });
    ruled.push({ start, end });
  };
  for (const r of FORMAT_RULES) {
    for (const m of read.matchAll(r.pattern)) {
      const secret = m.indices?.groups?.secret;
      const [start, end] = secret ?? [m.index, m.index + m[0].length];
      add(start, end, r.id);
    }
  }
  for (const p of findPhraseCredentials(read)) add(p.start, p.end, p.id);
  for (const p of findPhraseForms(read)) add(p.start, p.end, p.id);
  for (const p of [...findSentenceValues(read), ...findSecurityAnswers(read)]) add(p.start, p.end, p.id);
  for (const p of [...findDescribedValues(read), ...findLockValues(read)]) add(p.start, p.end, p.id);
  for (const p of [...findCommandLineValues(read), ...findSnippetValues(read), ...findSignInValues(read)])
    add(p.start, p.end, p.id);
  for (const p of findLaidOutValues(read)) add(p.start, p.end, p.id);
  for (const e of findRandomTokens(read)) add(e.start, e.end, "high-entropy");
  for (const w of findSeedPhrases(read)) add(w.start, w.end, "seed-phrase");
  // The readers come last: they read only what no rule found (credential-reader.ts,
  // credential-han-reader.ts).
  if (reader) for (const v of readCredentialValues(read, ruled)) add(v.start, v.end, "reader");
  if (reader) for (const v of readHanCredentialValues(read, ruled)) add(v.start, v.end, HAN_READER_RULE);
  return found;
}

const HAN_READER_RULE = "han-reader";

/**
 * Whether a finding of findSensitiveDataInMessage is a trained reader's, of values in letters or
 * in Chinese words, not a rule's: where a message comes in, a reader's value is masked wherever it
 * stands (mask-inbound-event.ts), and text typed for memory or settings is refused for it.
 */
export function isReaderFinding(span: { readonly rule: string }): boolean {
  return span.rule === "reader" || span.rule === HAN_READER_RULE;
}

/** No finding within an id the system minted (system-ids.ts), whichever rule read it. */
function outsideSystemIds<T extends TextRange>(t: DetectionText, spans: T[]): T[] {
  const ids = systemIdSpans(t.text).map(([start, end]) => originalSpan(t, { start, end }));
  if (ids.length === 0) return spans;
  return spans.filter((f) => !ids.some((id) => f.start >= id.start && f.end <= id.end));
}

/**
 * Credentials and personal numbers (ID, bank card, mobile) in `text`, each span with the mask
 * it takes: what the message log, raw payloads, replies and the model's input keep masked.
 */
export function findSensitiveData(text: string): CredentialSpan[] {
  return sensitiveSpans(text, false);
}

/**
 * What a person wrote in a message, read as findSensitiveData reads it and by the trained reader
 * of values too (credential-reader.ts): the reader is for people's words, so it reads a message's
 * text and transcripts where they come in (mask-inbound-event.ts), not the ids, settings, audit
 * rows and documents the rules read (docs/decisions/0640-a-trained-reader-of-credential-values.md).
 */
export function findSensitiveDataInMessage(text: string): CredentialSpan[] {
  return sensitiveSpans(text, true);
}

/** A message's text with each credential and personal number masked, the reader's findings too. */
export function maskSensitiveDataInMessage(text: string): string {
  return maskRanges(text, findSensitiveDataInMessage(text));
}

function sensitiveSpans(text: string, reader: boolean): CredentialSpan[] {
  if (text.length === 0) return [];
  const t = detectionText(text);
  const personal = findPersonalData(t.text).map((p) => ({
    ...originalSpan(t, p),
    rule: p.id,
    mask: PERSONAL_DATA_MASK,
  }));
  return merge(outsideSystemIds(t, [...secretsIn(t, reader), ...personal]).filter((s) => !isMask(text, s)));
}

export function containsSensitiveData(text: string): boolean {
  return findSensitiveData(text).length > 0;
}

/** `text` with each credential and personal number masked. Idempotent. */
export function maskSensitiveData(text: string): string {
  return maskRanges(text, findSensitiveData(text));
}

export function containsCredential(text: string): boolean {
  return findCredentials(text).length > 0;
}

/** `text` with each secret value replaced by CREDENTIAL_MASK. Idempotent. */
export function maskCredentials(text: string): string {
  return maskRanges(text, findCredentials(text));
}

/** A stretch of a text by UTF-16 offsets, end exclusive, and the mask it takes (CREDENTIAL_MASK if none). */
export type TextRange = { readonly start: number; readonly end: number; readonly mask?: string };

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
    out += text.slice(at, s.start) + (s.mask ?? CREDENTIAL_MASK);
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * A span that is an earlier mask, or a variable that stands for the secret (`$TOKEN`,
 * `${DB_PASS}`, `%PASSWORD%`, `$(cat /run/secrets/db)`) or a template's blank (`<你的token>`), is no
 * finding: the value is elsewhere.
 */
function isMask(text: string, span: CredentialSpan): boolean {
  const found = text.slice(span.start, span.end).trim();
  return found === CREDENTIAL_MASK || found === PERSONAL_DATA_MASK || VARIABLE.test(found);
}

const VARIABLE = /^(?:\$\{?[A-Z_][A-Z0-9_]*\}?|%[A-Z_][A-Z0-9_]*%|\$\([^()]*\)|<[^<>\s]{1,40}>)$/;

function merge<T extends TextRange>(spans: T[]): T[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: T[] = [];
  for (const s of spans) {
    const last = out.at(-1);
    if (last && s.start <= last.end) {
      const { mask, ...merged } = { ...last, end: Math.max(last.end, s.end) };
      // A credential's mask wins over a personal number's where they overlap.
      out[out.length - 1] = (mask !== undefined && s.mask === undefined ? merged : { ...merged, mask }) as T;
    } else out.push(s);
  }
  return out;
}
