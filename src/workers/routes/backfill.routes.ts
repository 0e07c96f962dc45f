/**
 * GET /api/backfill — the OneBot backfill's progress: whether it can run (ONEBOT_API_BASE set,
 * `backfill.enabled`), its bounds, and one row per followed OneBot group: its record, or
 * `pending` when the cron has not reached it yet. Records of groups no longer followed are
 * listed too, marked `followed: false`.
 */
import { Hono } from "hono";
import { backfillProgress } from "../../composition/backfill";
import { loadSettings } from "../../composition/settings-source";
import { followedOneBotGroups } from "../../domain/backfill/run-backfill";
import type { AppEnv } from "../app-env";

export const backfillRoutes = new Hono<AppEnv>().get("/backfill", async (c) => {
  const settings = await loadSettings(c.env);
  const store = backfillProgress(c.env);
  const [records, followed] = await Promise.all([store.list(), followedOneBotGroups(settings, store)]);
  const byChat = new Map(records.map((r) => [r.chatKey, r] as const));
  const following = new Set(followed);
  const groups = [
    ...followed.map((chatKey) => ({
      followed: true,
      ...(byChat.get(chatKey) ?? { chatKey, status: "pending" }),
    })),
    ...records.filter((r) => !following.has(r.chatKey)).map((r) => ({ followed: false, ...r })),
  ];
  return c.json({
    configured: Boolean(c.get("config").onebot.apiBase) && settings.backfill.enabled,
    bounds: settings.backfill,
    groups,
  });
});
