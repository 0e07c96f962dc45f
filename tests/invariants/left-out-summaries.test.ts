// Daily summaries never read a left-out person's messages (privacy.doNotRecord), even ones
// logged before they were listed and not forgotten: the summary of their chat-day is written
// from the others' messages alone.
import { env } from "cloudflare:workers";
import { dailySummaryJob } from "@src/composition/cron/daily-summaries-job";
import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { it } from "vitest";
import { resolvedSettings } from "../fakes/resolved-settings";
import { seedDay } from "../support/day-log";
import { uid } from "../support/memory";

const NOW = Date.parse("2026-10-11T02:00:00+08:00");

it("summarizes the day without the left-out member's lines", async ({ expect }) => {
  const chat = `qq:group:SUM${uid()}`;
  const start = Date.parse("2026-10-10T09:00:00+08:00");
  await seedDay(chat, start, [
    { user: "MEMBER", text: "周六一起去爬山吧" },
    { user: "LEFTOUT", text: "我下周要去医院复查" },
    { user: "MEMBER", text: "早上八点在山脚集合" },
    { user: "LEFTOUT", text: "我的体检结果不太好" },
    { user: "MEMBER", text: "记得带水和零食" },
    { user: "MEMBER", text: "下雨就改到周日" },
  ]);
  const settings = resolvedSettings({
    follow: { groups: ["*"] },
    summaries: { lookbackDays: 1, chatsPerRun: 500 },
    privacy: { doNotRecord: ["qq:user:LEFTOUT"] },
  });
  await dailySummaryJob(env, settings, NOW, new OfflineChatModel());
  const node = await env.DB.prepare(
    "SELECT raw_text, provenance FROM nodes WHERE node_type = 'summary' AND scope_id = ?1",
  )
    .bind(chat)
    .first<{ raw_text: string; provenance: string }>();
  expect(node?.raw_text).toContain("爬山");
  expect(node?.raw_text).not.toMatch(/医院|体检/);
  expect(node?.provenance).not.toMatch(/医院|体检/);
});
