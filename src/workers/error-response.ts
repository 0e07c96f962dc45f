/**
 * HTTP knowledge in one place: the one `problem()` vocabulary every JSON route answers errors
 * with (domain errors plus the few the HTTP edge adds), and the last-resort handler. The
 * webhooks are the exception by design: their refusals carry no body (verified-webhook.ts).
 */
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { opsLog } from "../composition/common/edge-stores";
import { ConfigError } from "../composition/common/runtime-config";
import type { DomainError } from "../domain/kernel/result";
import type { ValidationIssue } from "../domain/kernel/validation-issue";
import type { AppEnv } from "./app-env";

/** Errors only the HTTP edge has: authentication, body size, deployment faults. */
export type EdgeProblem =
  | { readonly kind: "unauthorized"; readonly reason: string }
  /** The admin door's throttle (auth/admin-door.ts): the reason is for a person to read. */
  | { readonly kind: "throttled"; readonly retryAfterSeconds: number; readonly reason: string }
  | { readonly kind: "too-large"; readonly reason: string }
  | { readonly kind: "misconfigured"; readonly reason: string }
  | { readonly kind: "internal" };

export type Problem = DomainError | EdgeProblem;

const STATUS = {
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  invalid: 400,
  "rate-limited": 429,
  unavailable: 503,
  unauthorized: 401,
  throttled: 429,
  "too-large": 413,
  misconfigured: 500,
  internal: 500,
} as const satisfies Record<Problem["kind"], ContentfulStatusCode>;

export const problem = (c: Context, e: Problem, headers?: Record<string, string>) =>
  c.json({ error: e.kind, ...detail(e) }, STATUS[e.kind], headers);

function detail(e: Problem): Record<string, string | number | ValidationIssue> {
  switch (e.kind) {
    case "invalid":
      return { field: e.field, reason: e.reason, ...(e.issue ? { issue: e.issue } : {}) };
    case "not-found":
      return { what: e.what };
    case "rate-limited":
      return { retryAfterSeconds: e.retryAfterSeconds };
    case "throttled":
      return { retryAfterSeconds: e.retryAfterSeconds, reason: e.reason };
    case "conflict":
      return { reason: e.reason, ...(e.code ? { code: e.code } : {}) };
    case "forbidden":
    case "unavailable":
    case "unauthorized":
    case "too-large":
    case "misconfigured":
      return { reason: e.reason };
    case "internal":
      return {};
  }
}

export const errorResponse: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof HTTPException) {
    if (error.status === 400)
      return problem(c, { kind: "invalid", field: "(body)", reason: error.message || "is invalid" });
    return error.getResponse();
  }
  if (error instanceof ConfigError) {
    console.error(JSON.stringify({ msg: "misconfigured", path: c.req.path, error: error.message }));
    return problem(c, { kind: "misconfigured", reason: error.message });
  }
  console.error(JSON.stringify({ msg: "unhandled", path: c.req.path, error: String(error) }));
  void keepError(c, `${c.req.method} ${c.req.path}`, error);
  return problem(c, { kind: "internal" }); // never echo stacks to clients
};

/**
 * Keeps the error for the overview's recent errors under `source`; a failing write must not
 * hide the answer. The write is also returned, for a caller whose answer may wait for it.
 */
export function keepError(
  c: { readonly env: Env; readonly executionCtx: { waitUntil(promise: Promise<unknown>): void } },
  source: string,
  error: unknown,
): Promise<void> {
  const write = opsLog(c.env)
    .record("error", { at: Date.now(), source, message: String(error) })
    .catch((e) => console.error(JSON.stringify({ msg: "error log write failed", error: String(e) })));
  try {
    c.executionCtx.waitUntil(write);
  } catch {
    // No execution context (app.request in tests): the write simply runs on its own.
  }
  return write;
}
