/** A refused change as the dashboard answers it: one line on the page, and the page's status. */
import type { DomainError } from "../../domain/kernel/result";

export const said = (e: DomainError) =>
  e.kind === "invalid" ? `${e.field} ${e.reason}` : "reason" in e ? e.reason : e.kind;

const STATUS = { invalid: 400, "not-found": 404 } as const;

export const statusOf = (e: DomainError) =>
  e.kind === "invalid" || e.kind === "not-found" ? STATUS[e.kind] : 409;
