/**
 * The owner's day-one API (docs/http-api.md#owner): admins and the first admin's claim code,
 * followed groups, one settings path at a time, and the deployment's own health checks. The
 * faces are `npm run akasha -- admins|follow|settings|doctor`; the work is the request's
 * `owner` and `doctor` services. Every change goes through the one settings write path.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

const entry = z.string().trim().min(1).max(200);
const AccountBody = z.object({ account: entry }).strict();
/** `forget: true` also deletes what was kept of the account, in the same request. */
const LeaveOutBody = z.object({ account: entry, forget: z.boolean().optional() }).strict();
const ChatBody = z.object({ chat: entry }).strict();
const PathBody = z.union([
  z.object({ path: entry, value: z.unknown().refine((v) => v !== undefined, "is required") }).strict(),
  z.object({ path: entry, unset: z.literal(true) }).strict(),
]);
const DoctorQuery = z.object({ model: z.enum(["0", "1"]).default("1") }).strict();

export const ownerRoutes = new Hono<AppEnv>()
  .get("/admins", async (c) => {
    const found = await c.get("services").owner.admins();
    return found.ok ? c.json(found.value) : problem(c, found.error);
  })
  .post("/admins", jsonBody(AccountBody), async (c) => {
    const { account } = c.req.valid("json");
    const done = await c
      .get("services")
      .owner.changeList({ path: "identity.admins", op: "add", entry: account });
    return done.ok ? c.json(done.value) : problem(c, done.error);
  })
  .delete("/admins", jsonBody(AccountBody), async (c) => {
    const { account } = c.req.valid("json");
    const done = await c
      .get("services")
      .owner.changeList({ path: "identity.admins", op: "remove", entry: account });
    return done.ok ? c.json(done.value) : problem(c, done.error);
  })
  .post("/admins/claim", async (c) => {
    const issued = await c.get("services").owner.issueClaim();
    return issued.ok ? c.json(issued.value) : problem(c, issued.error);
  })
  .get("/follow", async (c) => {
    const found = await c.get("services").owner.follows();
    return found.ok ? c.json(found.value) : problem(c, found.error);
  })
  .post("/follow", jsonBody(ChatBody), async (c) => {
    const { chat } = c.req.valid("json");
    const done = await c.get("services").owner.changeList({ path: "follow.groups", op: "add", entry: chat });
    return done.ok ? c.json(done.value) : problem(c, done.error);
  })
  .delete("/follow", jsonBody(ChatBody), async (c) => {
    const { chat } = c.req.valid("json");
    const done = await c
      .get("services")
      .owner.changeList({ path: "follow.groups", op: "remove", entry: chat });
    return done.ok ? c.json(done.value) : problem(c, done.error);
  })
  .get("/leave-out", async (c) => {
    const found = await c.get("services").privacy.list();
    return found.ok ? c.json(found.value) : problem(c, found.error);
  })
  .post("/leave-out", jsonBody(LeaveOutBody), async (c) => {
    const { account, forget } = c.req.valid("json");
    const done = await c.get("services").privacy.add(account, { forget: forget ?? false });
    return done.ok ? c.json(done.value) : problem(c, done.error);
  })
  .delete("/leave-out", jsonBody(AccountBody), async (c) => {
    const { account } = c.req.valid("json");
    const done = await c.get("services").privacy.remove(account);
    return done.ok ? c.json(done.value) : problem(c, done.error);
  })
  .patch("/settings", jsonBody(PathBody), async (c) => {
    const body = c.req.valid("json");
    const done = await c.get("services").owner.setPath(body.path, "unset" in body ? undefined : body.value);
    return done.ok ? c.json(done.value) : problem(c, done.error);
  })
  .get("/doctor", async (c) => {
    const q = DoctorQuery.safeParse(c.req.query());
    if (!q.success) return problem(c, { kind: "invalid", field: "model", reason: "must be 0 or 1" });
    return c.json({ checks: await c.get("services").doctor.checks({ model: q.data.model === "1" }) });
  });
