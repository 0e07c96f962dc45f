/**
 * The audit port: privileged and administrative actions leave a record (who, what, on what,
 * with which outcome). During a turn the records are collected by the turn and persisted by
 * the chat object together with the turn's other effects (audit_log in D1).
 */
export type AuditOutcome = "ok" | "refused" | "invalid" | "failed";

export type AuditEntry = {
  /** Dotted action name: `identity.link`, `send_message`, … */
  readonly action: string;
  /** Account key of whoever asked, when known. */
  readonly actor: string | null;
  /** What the action was about: an account, a person, a chat. */
  readonly target: string | null;
  readonly outcome: AuditOutcome;
  /** Ids, kinds and reasons only — never message text or secrets. */
  readonly detail: Readonly<Record<string, string | number | boolean | null>>;
};

/** An audit entry as a turn reports it: stamped with the chat and the time. */
export type AuditEvent = AuditEntry & { readonly chatKey: string; readonly at: number };

export interface AuditTrail {
  record(entry: AuditEntry): void;
}

/** For read-only runs (context preview): whatever a step would record is dropped. */
export const discardAudit: AuditTrail = { record() {} };
