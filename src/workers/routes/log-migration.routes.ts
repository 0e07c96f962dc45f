/**
 * The owner's copy of each chat's D1 log into its object (docs/storage.md#moving-the-log-into-the-chat-objects):
 *
 * GET  /api/log-migration           — where it stands: chats copying, verified, skipped or
 *                                      a mismatch (with why), rows copied of D1's rows.
 * POST /api/log-migration/step      — one bounded step (optional JSON `{ pageSize, maxRows,
 *                                      maxMs, maxChats }`), then the same progress; call until `done`.
 * POST /api/log-migration/retry     — chats that did not verify are copied again from the start.
 * POST /api/log-migration/rollback  — verified chats read D1 again (bounded; `left` remain).
 * POST /api/log-migration/delete-d1 — `{ "confirm": true }` deletes the old D1 rows of verified
 *                                      chats (bounded; `left` remain); without it, what it would delete.
 *
 * Safe to call again after any failure or interruption: every write is idempotent.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { jsonBody } from "../json-body";

const StepBody = z
  .object({
    pageSize: z.number().int().min(1).max(1000).optional(),
    maxRows: z.number().int().min(1).max(50_000).optional(),
    maxMs: z.number().int().min(100).max(25_000).optional(),
    maxChats: z.number().int().min(1).max(200).optional(),
  })
  .strict();

const stepBody = jsonBody(StepBody);

/** Only `true` confirms; the field left out (or false) asks what would be deleted. */
const deleteBody = jsonBody(z.object({ confirm: z.boolean().optional() }).strict());
/** A step needs no body: an empty one takes the default budget. */
const optionalStepBody: typeof stepBody = async (c, next) =>
  (await c.req.text()).trim() === "" ? next() : stepBody(c, next);

export const logMigrationRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await c.get("services").logMigration.progress()))
  .post("/step", optionalStepBody, async (c) => {
    const budget = (await c.req.text()).trim() === "" ? {} : c.req.valid("json");
    return c.json(await c.get("services").logMigration.step(budget));
  })
  .post("/retry", async (c) => c.json(await c.get("services").logMigration.retry()))
  .post("/rollback", async (c) => c.json(await c.get("services").logMigration.rollback()))
  .post("/delete-d1", deleteBody, async (c) =>
    c.json(await c.get("services").logMigration.deleteD1(c.req.valid("json").confirm === true)),
  );
