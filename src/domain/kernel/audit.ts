/**
 * The audit port: privileged and administrative actions leave a record (who, what, on what,
 * with which outcome). During a turn the records are collected by the turn and persisted by
 * the chat object together with the turn's other effects (audit_log in D1).
 */
import { CREDENTIAL_MASK, type CredentialSpan, findCredentials } from "../privacy/credentials";

export type AuditOutcome = "ok" | "refused" | "invalid" | "failed";

export type AuditEntry = {
  /** Dotted action name: `identity.link`, `send_message`, … */
  readonly action: string;
  /** Account key of whoever asked, when known. */
  readonly actor: string | null;
  /** What the action was about: an account, a person, a chat. */
  readonly target: string | null;
  readonly outcome: AuditOutcome;
  /**
   * Ids, kinds and reasons only — never message text or secrets. Stored through
   * `maskAuditCredentials`, which holds the "no secrets" half even where a value came from
   * the model.
   */
  readonly detail: Readonly<Record<string, string | number | boolean | null>>;
};

/** An audit entry as a turn reports it: stamped with the chat and the time. */
export type AuditEvent = AuditEntry & { readonly chatKey: string; readonly at: number };

export interface AuditTrail {
  record(entry: AuditEntry): void;
}

/** For read-only runs (context preview): whatever a step would record is dropped. */
export const discardAudit: AuditTrail = { record() {} };

/** The two fields of an audit record that carry what an action was given. */
type AuditFields = { readonly target: string | null; readonly detail: Readonly<Record<string, unknown>> };

/**
 * The record as it may be stored: every credential in its target and in every string of its
 * detail (nested values and keys included) replaced by the mask, all else unchanged.
 * Tools record the arguments the model sent (a settings path, an account, a file name, a
 * before/after value), so the rule cannot rest on each writer remembering it: every store of
 * audit records (the chat object's outbox, the audit_log rows) writes through this.
 */
export function maskAuditCredentials<T extends AuditFields>(record: T): T {
  return {
    ...record,
    target: record.target === null ? null : maskedText(record.target),
    // Same shape: strings stay strings, and only keys that hold a credential change.
    detail: maskedValue(record.detail) as T["detail"],
  };
}

function maskedValue(value: unknown): unknown {
  if (typeof value === "string") return maskedText(value);
  if (Array.isArray(value)) return value.map(maskedValue);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [maskedText(k), maskedValue(v)]));
}

/**
 * Ids this system mints, which the random-token rule cannot tell from a key: a record is
 * about them (`memory:m_…`, an owner plan, the nodes it moved), so they stay readable.
 */
const OWN_IDS: readonly RegExp[] = [
  // Memory items (memoryNodeId): two cyrb53 lanes in base 36, 11 digits each.
  /(?<![\w-])m_[0-9a-z]{22}(?![\w-])/g,
  // Knowledge documents and nodes (document-plan.ts): 24 hex digits of the content hash.
  /(?<![\w-])[dn]_[0-9a-f]{24}(?![\w-])/g,
  // Owner plans (d1-owner-plans.ts): creation time and a piece of a UUID.
  /(?<![\w-])plan-\d{13}-[0-9a-f]{8}(?![\w-])/g,
];

/** `text` with each credential masked, except a random-looking token that is one of our ids. */
function maskedText(text: string): string {
  const ids = OWN_IDS.flatMap((re) =>
    [...text.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length })),
  );
  const isId = (s: CredentialSpan) =>
    s.rule === "high-entropy" && ids.some((id) => s.start >= id.start && s.end <= id.end);
  let out = "";
  let at = 0;
  for (const s of findCredentials(text)) {
    if (isId(s)) continue;
    out += text.slice(at, s.start) + CREDENTIAL_MASK;
    at = s.end;
  }
  return out + text.slice(at);
}
