// Own file: it stores calendar.timeZone. The dashboard shows every time in that zone with its
// offset, buckets its chart by that zone's midnight and reads its date filters as that zone's
// days: a message at 2026-12-02T16:30Z is 12-03 00:30 +08:00 in Shanghai (the day the bot's
// "昨天" puts it on) and 12-02 08:30 -08:00 in Los Angeles. An invalid zone changes nothing.
import { env, exports } from "cloudflare:workers";
import { insightsService } from "@src/composition/request/insights-service";
import { settingsCache } from "@src/composition/settings/settings-cache";
import { cachedSettingsSource } from "@src/composition/settings/settings-loader";
import { afterEach, describe, it } from "vitest";
import { dashboardPage } from "../../support/admin-session";
import { dayRecords, seedDay } from "../../support/day-log";
import { uid } from "../../support/memory";
import { writeLog } from "../../support/object-log";
import { registerChat } from "../../support/sessions";
import { storedSettings } from "../../support/stored-settings";

const MESSAGE = Date.parse("2026-12-02T16:30:00Z");
/** 2026-12-04 10:00 in Shanghai, 12-03 18:00 in Los Angeles. */
const NOW = Date.parse("2026-12-04T02:00:00Z");

const page = (path: string) => dashboardPage(path);

async function useZone(timeZone: string) {
  await storedSettings(env).write(JSON.stringify({ calendar: { timeZone } }), "test", Date.now());
}

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
  settingsCache.invalidate();
});

/** A chat the dashboard can open: its registry row, and its log in its object and in D1. */
async function seedChat(chat: string, lines: Parameters<typeof dayRecords>[2]) {
  await registerChat(chat, MESSAGE);
  await writeLog(dayRecords(chat, MESSAGE, lines));
}

async function seedAudit(action: string) {
  await env.DB.prepare(
    "INSERT INTO audit_log (at, actor, action, target, detail) VALUES (?1, 'test', ?2, '', ?3)",
  )
    .bind(MESSAGE, action, JSON.stringify({ expiresAt: MESSAGE }))
    .run();
}

describe("the dashboard's clock", () => {
  it("shows a chat's message at 12-03 00:30 +08:00 in Shanghai and 12-02 08:30 -08:00 in Los Angeles", async ({
    expect,
  }) => {
    const chat = `qq:group:${uid()}`;
    await seedChat(chat, [{ user: "U1", nick: "小明", text: "团建定在周五" }]);
    await useZone("Asia/Shanghai");
    const shanghai = await (await page(`/admin/chats/${encodeURIComponent(chat)}`)).text();
    expect(shanghai).toContain("2026-12-03 00:30 +08:00");
    expect(shanghai).not.toContain("2026-12-02 16:30");
    await useZone("America/Los_Angeles");
    const la = await (await page(`/admin/chats/${encodeURIComponent(chat)}`)).text();
    expect(la).toContain("2026-12-02 08:30 -08:00");
    expect(la).not.toContain("+08:00");
  });

  it("reads the audit page's date filter as the zone's day", async ({ expect }) => {
    const action = `clock.${uid()}`;
    await seedAudit(action);
    // The row, not the filter form that echoes the action typed.
    const day = async (d: string) =>
      (await (await page(`/admin/audit?action=${action}&from=${d}&until=${d}`)).text()).includes(
        `<td>${action}</td>`,
      );
    await useZone("Asia/Shanghai");
    expect(await day("2026-12-03")).toBe(true);
    expect(await day("2026-12-02")).toBe(false);
    const html = await (await page(`/admin/audit?action=${action}`)).text();
    expect(html).toContain("<td>2026-12-03 00:30 +08:00</td>");
    // The detail's instant is on the same clock, never a raw epoch.
    expect(html).toContain("&quot;expiresAt&quot;:&quot;2026-12-03 00:30 +08:00&quot;");
    expect(html).not.toContain(String(MESSAGE));
    await useZone("America/Los_Angeles");
    expect(await day("2026-12-02")).toBe(true);
    expect(await day("2026-12-03")).toBe(false);
  });

  it("counts the message in the chart's 12-03 bucket in Shanghai, 12-02 in Los Angeles", async ({
    expect,
  }) => {
    const insights = insightsService(env, cachedSettingsSource(env));
    const byDay = async () =>
      Object.fromEntries((await insights.stats(3, NOW)).messagesByDay.map((d) => [d.day, d.messages]));
    await useZone("Asia/Shanghai");
    const before = await byDay();
    const window = (await insights.window(3, NOW)).map((d) => d.day);
    expect(window).toEqual(["2026-12-02", "2026-12-03", "2026-12-04"]);
    await seedDay(`qq:group:${uid()}`, MESSAGE, [{ user: "U1", text: "一条" }]);
    const after = await byDay();
    expect((after["2026-12-03"] ?? 0) - (before["2026-12-03"] ?? 0)).toBe(1);
    expect(after["2026-12-02"] ?? 0).toBe(before["2026-12-02"] ?? 0);
    await useZone("America/Los_Angeles");
    expect((await insights.window(3, NOW)).map((d) => d.day)).toEqual([
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
    ]);
    const la = await byDay();
    expect(la["2026-12-02"] ?? 0).toBeGreaterThanOrEqual(1);
  });

  it("reports model usage per local day, for all chats and for one", async ({ expect }) => {
    const chat = `qq:group:${uid()}`;
    const model = `clock-${uid()}`;
    await env.DB.prepare(
      `INSERT INTO model_usage (dedupe_key, chat_key, provider, model, purpose, prompt_tokens, completion_tokens, latency_ms, ok, at)
       VALUES (?1, ?2, 'test', ?3, 'turn', 10, 5, 100, 1, ?4)`,
    )
      .bind(uid(), chat, model, MESSAGE)
      .run();
    const insights = insightsService(env, cachedSettingsSource(env));
    const days = async (of?: string) =>
      (await insights.usage(3, of, NOW)).byDay.filter((r) => r.model === model).map((r) => [r.day, r.calls]);
    await useZone("Asia/Shanghai");
    expect(await days()).toEqual([["2026-12-03", 1]]);
    expect(await days(chat)).toEqual([["2026-12-03", 1]]);
    await useZone("America/Los_Angeles");
    expect(await days(chat)).toEqual([["2026-12-02", 1]]);
  });

  it("refuses an unknown zone with the field named and keeps showing the old one", async ({ expect }) => {
    const chat = `qq:group:${uid()}`;
    await seedChat(chat, [{ user: "U1", text: "团建定在周五" }]);
    await useZone("Asia/Shanghai");
    const res = await exports.default.fetch(
      new Request("https://bot.test/api/settings", {
        method: "PATCH",
        headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ path: "calendar.timeZone", value: "Mars/Olympus_Mons" }),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: "calendar.timeZone" });
    expect(JSON.parse((await storedSettings(env).read()) ?? "{}")).toEqual({
      calendar: { timeZone: "Asia/Shanghai" },
    });
    const html = await (await page(`/admin/chats/${encodeURIComponent(chat)}`)).text();
    expect(html).toContain("2026-12-03 00:30 +08:00");
  });
});
