/**
 * The audit port: privileged and administrative actions leave a record (who, what, on what,
 * with which outcome). During a turn the records are collected by the turn and persisted by
 * the chat object together with the turn's other effects (audit_log in D1).
 */
import { maskSensitiveData } from "../privacy/credentials";

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
    target: record.target === null ? null : maskSensitiveData(record.target),
    // Same shape: strings stay strings, and only keys that hold a credential change.
    detail: maskedValue(record.detail) as T["detail"],
  };
}

function maskedValue(value: unknown): unknown {
  if (typeof value === "string") return maskSensitiveData(value);
  if (Array.isArray(value)) return value.map(maskedValue);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [maskSensitiveData(k), maskedValue(v)]));
}
