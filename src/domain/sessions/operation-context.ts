/**
 * What every session operation handler shares (docs/sessions.md#commands): its dependencies,
 * the audit row each use writes (refusals and mistakes included, with the command text), the
 * refusal that audits itself, and how a reference resolves to a session.
 */
import type { AuditOutcome } from "../kernel/audit";
import type { DomainError } from "../kernel/result";
import type { PrivateExposure } from "./cluster-exposure";
import type { SessionOperation } from "./session-operation";
import type { SessionInfo, SessionRegistry } from "./session-registry";

export type SessionAuditEntry = {
  readonly action: string;
  readonly target: string | null;
  readonly outcome: AuditOutcome;
  readonly detail: Readonly<Record<string, string | number | boolean | null>>;
};

export type SessionOpDeps = {
  readonly registry: SessionRegistry;
  /** A person's accounts (declared and linked); null when no such person is known. */
  readonly personAccounts: (personId: string) => Promise<readonly string[] | null>;
  readonly audit: (entry: SessionAuditEntry) => void | Promise<void>;
  readonly now: number;
  /** `calendar.timeZone`: the times an answer or an export shows are local, with the offset. */
  readonly timeZone: string;
  /** The operation as the admin typed or sent it, for the audit row. */
  readonly commandText: string;
};

export type SessionAnswer =
  | { readonly ok: true; readonly text: string; readonly data: Record<string, unknown> }
  | { readonly ok: false; readonly text: string; readonly error: DomainError };

type AuditDetail = Record<string, string | number | boolean | null>;

export type OperationContext = {
  readonly deps: SessionOpDeps;
  readonly audit: (target: string | null, outcome: AuditOutcome, detail?: AuditDetail) => Promise<void>;
  /** Audits the refusal (or mistake) and answers it. */
  readonly fail: (error: DomainError, text: string, target?: string | null) => Promise<SessionAnswer>;
  /** Forgetting a person and its preview both refuse an id the directory does not know. */
  readonly unknownPerson: (person: string) => Promise<SessionAnswer>;
  /** The session a reference names, or the audited refusal to answer when none does. */
  readonly resolved: (
    ref: string,
  ) => Promise<
    | { readonly error: SessionAnswer; readonly session?: undefined }
    | { readonly error?: undefined; readonly session: SessionInfo }
  >;
};

/** One handler an operation: the table in run-session-operation.ts picks it by `op`. */
export type OperationHandlers = {
  readonly [K in SessionOperation["op"]]: (
    op: Extract<SessionOperation, { op: K }>,
    ctx: OperationContext,
  ) => Promise<SessionAnswer>;
};

export function operationContext(op: SessionOperation, deps: SessionOpDeps): OperationContext {
  const audit = async (target: string | null, outcome: AuditOutcome, detail: AuditDetail = {}) =>
    deps.audit({
      action: `session.${op.op}`,
      target,
      outcome,
      detail: { command: deps.commandText, ...detail },
    });
  const fail = async (
    error: DomainError,
    text: string,
    target: string | null = null,
  ): Promise<SessionAnswer> => {
    await audit(target, error.kind === "not-found" || error.kind === "invalid" ? "invalid" : "refused", {
      reason: "reason" in error ? error.reason : error.kind === "not-found" ? error.what : error.kind,
    });
    return { ok: false, text, error };
  };
  const unknownPerson = (person: string) =>
    fail({ kind: "not-found", what: `person ${person}` }, `找不到人物 ${person}。`, person);
  const resolved = async (ref: string) => {
    const s = await deps.registry.resolve(ref);
    if (!s)
      return {
        error: await fail(
          { kind: "not-found", what: `session ${ref}` },
          `找不到会话 ${ref}（可用会话 id、别名或 chat key）`,
        ),
      };
    return { session: s };
  };
  return { deps, audit, fail, unknownPerson, resolved };
}

export const name = (s: SessionInfo) =>
  `${s.sessionId}${s.alias ? `（${s.alias}）` : s.title ? `（${s.title}）` : ""}`;

export function line(s: SessionInfo): string {
  const flags = [
    s.clusterId === s.sessionId ? null : `组 ${s.clusterId}`,
    s.storeEnabled ? null : "不存储",
    s.keepDays === null ? null : `保留 ${s.keepDays} 天`,
  ].filter(Boolean);
  return `${name(s)} ${s.chatKey}${flags.length ? ` [${flags.join("，")}]` : ""}`;
}

export const riskText = (e: readonly PrivateExposure[]) =>
  e.map((x) => `群 ${x.group} 将能读取 ${x.label}（${x.privateChat}）的私聊记忆中的公开条目`).join("；");
