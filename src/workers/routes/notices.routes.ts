/**
 * GET /api/notices — the open notices to the owner, newest first (`?all=1`: acknowledged ones
 * too). POST /api/notices/:id/ack — acknowledges one; it is no longer shown. Audited
 * `notice.ack`. An id that is not a number is a 400, an unknown or already acknowledged one a
 * 404; a body, if sent, must be a JSON object (nothing in it is read), or it is a 400 and
 * nothing changes.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";

export const noticesRoutes = new Hono<AppEnv>()
  .get("/notices", async (c) => {
    const all = c.req.query("all");
    if (all !== undefined && all !== "0" && all !== "1")
      return problem(c, { kind: "invalid", field: "all", reason: "is 0 or 1" });
    return c.json({ notices: await c.get("services").notices.list(all === "1") });
  })
  .post("/notices/:id/ack", async (c) => {
    const raw = await c.req.text();
    if (raw.trim() !== "") {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return problem(c, { kind: "invalid", field: "body", reason: "is not JSON" });
      }
      if (typeof body !== "object" || body === null || Array.isArray(body))
        return problem(c, { kind: "invalid", field: "body", reason: "must be a JSON object (or empty)" });
    }
    const done = await c.get("services").notices.acknowledge(c.req.param("id"));
    if (!done.ok) return problem(c, done.error);
    return c.json({ notice: done.value, message: `acknowledged #${done.value.id}` });
  });
