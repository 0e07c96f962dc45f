/** HTTP knowledge in one place: domain errors to statuses, and the last-resort handler. */
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ConfigError } from "../composition/runtime-config";
import type { DomainError } from "../domain/shared/result";
import type { AppEnv } from "./app-env";

const STATUS = {
  forbidden: 403,
  "not-found": 404,
  invalid: 400,
  "rate-limited": 429,
  unavailable: 503,
} as const satisfies Record<DomainError["kind"], ContentfulStatusCode>;

export const problem = (c: Context, e: DomainError) =>
  c.json({ error: e.kind, ...detail(e) }, STATUS[e.kind]);

function detail(e: DomainError): Record<string, string | number> {
  switch (e.kind) {
    case "invalid":
      return { field: e.field, reason: e.reason };
    case "forbidden":
      return { reason: e.reason };
    case "not-found":
      return { what: e.what };
    case "rate-limited":
      return { retryAfterSeconds: e.retryAfterSeconds };
    case "unavailable":
      return { reason: e.reason };
  }
}

export const errorResponse: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof HTTPException) return error.getResponse();
  if (error instanceof ConfigError) {
    console.error(JSON.stringify({ msg: "misconfigured", path: c.req.path, error: error.message }));
    return c.json({ error: "misconfigured", reason: error.message }, 500);
  }
  console.error(JSON.stringify({ msg: "unhandled", path: c.req.path, error: String(error) }));
  return c.json({ error: "internal" }, 500); // never echo stacks to clients
};
