/**
 * GET /api/backfill — the OneBot backfill's progress: whether it can run (ONEBOT_API_BASE set,
 * `backfill.enabled`), its bounds, and one row per followed OneBot group: its record, or
 * `pending` when the cron has not reached it yet. Records of groups no longer followed are
 * listed too, marked `followed: false`.
 *
 * POST /api/backfill/:chat/restart — a failed group's backfill runs again from its recorded
 * cursor at the next cron run (restart-backfill.ts); audited with the acting admin.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";

export const backfillRoutes = new Hono<AppEnv>()
  .get("/backfill", async (c) => {
    return c.json(await c.get("services").backfill.overview());
  })
  .post("/backfill/:chat/restart", async (c) => {
    const restarted = await c.get("services").backfill.restart(c.req.param("chat"));
    if (!restarted.ok) return problem(c, restarted.error);
    const { changed, progress } = restarted.value;
    return c.json({
      changed,
      progress,
      message: changed
        ? `restarted: the next cron run resumes ${progress.chatKey} before message_seq ${progress.cursor ?? "(the newest)"}`
        : `${progress.chatKey} is already running; nothing changed`,
    });
  });
