/** Expected failures are values; bugs are exceptions. Results cross Durable Object RPC intact. */
import type { ValidationIssue } from "./validation-issue";

export type Ok<T> = { ok: true; value: T };
export type Err<E> = { ok: false; error: E };
export type Result<T, E = DomainError> = Ok<T> | Err<E>;

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value });
export const err = <E>(error: E): Err<E> => ({ ok: false, error });

export type DomainError =
  | { kind: "forbidden"; reason: string }
  | { kind: "not-found"; what: string }
  /** `issue`: the schema's failure as data, for readers that word it in their language. */
  | { kind: "invalid"; field: string; reason: string; issue?: ValidationIssue }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  /**
   * What was read changed before the write, or the write needs a confirmation: nothing written.
   * `code` names the case for a client that says it in its own words (`shared-needs-confirm`).
   */
  | { kind: "conflict"; reason: string; code?: string }
  | { kind: "unavailable"; reason: string };

export const invalid = (field: string, reason: string): Err<DomainError> =>
  err({ kind: "invalid", field, reason });
