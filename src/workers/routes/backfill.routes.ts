/**
 * GET /api/backfill — the OneBot backfill's progress: whether it can run (ONEBOT_API_BASE set,
 * `backfill.enabled`), its bounds, and one row per followed OneBot group: its record, or
 * `pending` when the cron has not reached it yet. Records of groups no longer followed are
 * listed too, marked `followed: false`.
 *
 * POST /api/backfill/:chat/restart — a failed group's backfill runs again from its recorded
 * cursor at the next cron run (restart-backfill.ts); audited with the acting admin.
 */
import { type Context, Hono } from "hono";
import { auditLog } from "../../composition/admin-services";
import { backfillProgress } from "../../composition/backfill";
import { loadSettings } from "../../composition/settings-source";
import { restartBackfill } from "../../domain/backfill/restart-backfill";
import { followedOneBotGroups } from "../../domain/backfill/run-backfill";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";

/** Every followed group's progress (pending when it has no record) and the unfollowed ones' records. */
export async function backfillOverview(env: Env) {
  const settings = await loadSettings(env);
  const store = backfillProgress(env);
  const [records, followed] = await Promise.all([store.list(), followedOneBotGroups(settings, store)]);
  const byChat = new Map(records.map((r) => [r.chatKey, r] as const));
  const following = new Set(followed);
  const groups = [
    ...followed.map((chatKey) => ({
      followed: true,
      ...(byChat.get(chatKey) ?? { chatKey, status: "pending" as const }),
    })),
    ...records.filter((r) => !following.has(r.chatKey)).map((r) => ({ followed: false, ...r })),
  ];
  return { settings, groups };
}

/** One restart for an admin request (API or dashboard), audited with who asked and how. */
export async function restartBackfillRequest(c: Context<AppEnv>, chatKey: string, via: "api" | "dashboard") {
  const actor = c.get("admin").actor;
  const log = auditLog(c.env);
  const at = Date.now();
  return restartBackfill(chatKey, {
    store: backfillProgress(c.env),
    settings: await loadSettings(c.env),
    now: at,
    audit: (entry) =>
      log.record({
        at,
        actor,
        action: "backfill.restart",
        chatKey: chatKey.length <= 200 ? chatKey : null,
        target: chatKey.slice(0, 200),
        detail: { via, outcome: entry.outcome, ...entry.detail },
      }),
  });
}

export const backfillRoutes = new Hono<AppEnv>()
  .get("/backfill", async (c) => {
    const { settings, groups } = await backfillOverview(c.env);
    return c.json({
      configured: Boolean(c.get("config").onebot.apiBase) && settings.backfill.enabled,
      bounds: settings.backfill,
      groups,
    });
  })
  .post("/backfill/:chat/restart", async (c) => {
    const restarted = await restartBackfillRequest(c, c.req.param("chat"), "api");
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
