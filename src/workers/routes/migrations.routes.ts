/**
 * The owner's data migrations from the admin API: generate a scope-migration or
 * sensitivity-backfill plan (read-only inspect, stored in D1), apply the approved rows, roll
 * back. Same plan logic and guarded SQL as the CLI; every step audited with the acting admin.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { PLAN_KINDS } from "../../composition/request/migrations-service";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

const PlanId = z.string().regex(/^plan-[0-9]+-[0-9a-f]{8}$/, "must be a plan id");
const CreateBody = z.object({ kind: z.enum(PLAN_KINDS) }).strict();
const ApplyBody = z
  .object({
    approve: z
      .array(
        z
          .object({
            nodeId: z.string().min(1).max(128),
            to: z.string().min(1).max(200).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(5000),
  })
  .strict();

const planId = (c: Context<AppEnv>) => PlanId.safeParse(c.req.param("id"));

export const migrationsRoutes = new Hono<AppEnv>()
  .get("/plans", async (c) => c.json({ plans: await c.get("services").migrations.list(20) }))
  .post("/plans", jsonBody(CreateBody), async (c) => {
    const created = await c.get("services").migrations.create(c.req.valid("json").kind);
    return c.json(created, 201);
  })
  .get("/plans/:id", async (c) => {
    const id = planId(c);
    if (!id.success) return problem(c, { kind: "invalid", field: "id", reason: "must be a plan id" });
    const plan = await c.get("services").migrations.get(id.data);
    return plan ? c.json(plan) : problem(c, { kind: "not-found", what: `plan ${id.data}` });
  })
  .post("/plans/:id/apply", jsonBody(ApplyBody), async (c) => {
    const id = planId(c);
    if (!id.success) return problem(c, { kind: "invalid", field: "id", reason: "must be a plan id" });
    const done = await c.get("services").migrations.apply(id.data, c.req.valid("json").approve);
    return done.ok ? c.json(done.value) : problem(c, done.error);
  })
  .post("/plans/:id/rollback", async (c) => {
    const id = planId(c);
    if (!id.success) return problem(c, { kind: "invalid", field: "id", reason: "must be a plan id" });
    const done = await c.get("services").migrations.rollback(id.data);
    return done.ok ? c.json(done.value) : problem(c, done.error);
  });
