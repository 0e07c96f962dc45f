/**
 * Every message log read again by today's detectors (docs/decisions/0990-logs-kept-before-a-detector-read-them.md):
 *
 * POST /api/log-credentials/step — `{ mask?, cursor?, maxMs? }`: one bounded step of the sweep,
 *   from `cursor` (the last step's; left out, from the start). Only `mask: true` rewrites what
 *   holds a value; left out, the counts say what would be. Call again with the answer's `cursor`
 *   until `done`.
 */
import { Hono } from "hono";
import { StepBody } from "../admin-input/credential-input";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

export const logCredentialsRoutes = new Hono<AppEnv>().post("/step", jsonBody(StepBody), async (c) => {
  const { mask, cursor, maxMs } = c.req.valid("json");
  const step = await c.get("services").credentialSweep.step({
    mask: mask === true,
    cursor: cursor ?? null,
    ...(maxMs === undefined ? {} : { maxMs }),
  });
  if (!step.ok) return problem(c, { kind: "invalid", field: "cursor", reason: step.error });
  return c.json(step.value);
});
