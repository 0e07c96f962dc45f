/**
 * The one validation path for JSON request bodies: Hono's `validator` middleware with a zod
 * schema. Every route that takes JSON mounts `jsonBody(Schema)` and reads `c.req.valid("json")`,
 * so a body is refused the same way everywhere — before the handler runs, with no state
 * changed — and through `problem()`:
 *
 * - a media type other than `application/json` (Hono's validator would silently see `{}`,
 *   so `{` sent as text/plain used to start work) → 400 `content-type`;
 * - an empty or malformed body, or one nesting deeper than `MAX_JSON_DEPTH` → 400 `(body)`;
 * - a body the schema refuses → 400 naming the first bad field.
 */
import type { Context } from "hono";
import { validator } from "hono/validator";
import type { z } from "zod";
import { parseBoundedJson } from "../domain/kernel/bounded-json";
import type { DomainError } from "../domain/kernel/result";
import { problem } from "./error-response";

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

export function isJsonRequest(c: Context): boolean {
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
  return JSON_MEDIA_TYPE.test(mediaType);
}

/** The first schema issue as the `invalid` error the API answers with. */
export function invalidBody(issues: readonly z.core.$ZodIssue[]): DomainError {
  const issue = issues[0];
  return {
    kind: "invalid",
    field: issue?.path.join(".") || "(body)",
    reason: issue?.message ?? "is invalid",
  };
}

export function jsonBody<S extends z.ZodType>(schema: S) {
  const validate = validator("json", (value, c) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? (parsed.data as z.output<S>) : problem(c, invalidBody(parsed.error.issues));
  });
  const middleware: typeof validate = async (c, next) => {
    if (!isJsonRequest(c))
      return problem(c, { kind: "invalid", field: "content-type", reason: "must be application/json" });
    // Checked here so that malformed or too deeply nested JSON gets the API's answer before
    // the schema walks it; Hono caches the text, and the validator's parse reads it from there.
    const parsed = parseBoundedJson(await c.req.text());
    if (!parsed.ok)
      return problem(c, {
        kind: "invalid",
        field: "(body)",
        reason: parsed.tooDeep ? parsed.reason : `is not valid JSON (${parsed.syntax})`,
      });
    return validate(c, next);
  };
  return middleware;
}
