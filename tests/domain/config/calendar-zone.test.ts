// One time zone, `calendar.timeZone`, decides the day for history dates, daily summaries and
// spend caps: set to New York, all three read New York's "yesterday"; an invalid zone is
// refused by the settings API with the field named, and nothing is saved.
import { env, exports } from "cloudflare:workers";
import { historySearch } from "@src/composition/common/history-search";
import { dailySummaryJob } from "@src/composition/cron/daily-summaries-job";
import { settingsCache } from "@src/composition/settings/settings-cache";
import { loadSettings } from "@src/composition/settings/settings-loader";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { runTurn } from "@src/domain/agent/turn";
import type { Settings } from "@src/domain/config/settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";
import { resolvedSettings } from "../../fakes/resolved-settings";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { turnPorts } from "../../fakes/turn-ports";
import { seedDay } from "../../support/day-log";
import { uid } from "../../support/memory";
import { storeSettings } from "../../support/stored-settings";
import { turnContext } from "../../support/turn-context";

const NY = "America/New_York";
/** 2026-12-01 02:00 in Shanghai = 2026-11-30 13:00 in New York: the zones disagree on "yesterday". */
const NOW = Date.parse("2026-12-01T02:00:00+08:00");

async function historyAnswer(chat: string, settings: Settings, query: string): Promise<string> {
  const event = messageEvent({ chat, text: query, sender: "U1", name: "U1" });
  const model = new ScriptedChatModel([
    { toolCalls: [{ id: "t1", name: "history_search", arguments: JSON.stringify({ query }) }] },
    { text: "好" },
  ]);
  const ctx = turnContext(event, {
    text: query,
    settings,
    now: NOW,
  });
  await runTurn(ctx, turnPorts({ model, history: historySearch(env) }), defaultTurnRegistry(silentLogger));
  return String(model.requests[1]?.messages.find((m) => m.role === "tool")?.content);
}

const admin = (init: RequestInit = {}) => ({
  ...init,
  headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
});

describe("calendar.timeZone", () => {
  it("history dates follow the configured zone, and the times shown are in it", async ({ expect }) => {
    const chat = `qq:group:CAL${uid()}`;
    // 2026-11-29 09:00 New York = 2026-11-29 22:00 Shanghai.
    await seedDay(chat, Date.parse("2026-11-29T09:00:00-05:00"), [
      { user: "A", text: "纽约的昨天说的烧烤计划" },
    ]);
    // 2026-11-30 10:00 Shanghai = 2026-11-29 21:00 New York.
    await seedDay(chat, Date.parse("2026-11-30T10:00:00+08:00"), [
      { user: "B", text: "上海的昨天说的烧烤计划" },
    ]);
    const inNy = await historyAnswer(
      chat,
      resolvedSettings({ calendar: { timeZone: NY } }),
      "昨天的烧烤计划",
    );
    expect(inNy).toContain("时间 2026-11-29 至 2026-11-29");
    expect(inNy).toContain("[2026-11-29 09:00 -05:00]");
    const nyMatches = inNy.split("（所问时间以外的相关消息）")[0] ?? "";
    expect(nyMatches).toContain("纽约的昨天");
    expect(nyMatches).toContain("上海的昨天"); // 21:00 on the 29th in New York
    const inShanghai = await historyAnswer(chat, resolvedSettings({}), "昨天的烧烤计划");
    expect(inShanghai).toContain("时间 2026-11-30 至 2026-11-30");
    const shMatches = inShanghai.split("（所问时间以外的相关消息）")[0] ?? "";
    expect(shMatches).toContain("上海的昨天");
    expect(shMatches).not.toContain("纽约的昨天");
  });

  it("daily summaries cut the day at the configured zone's midnight", async ({ expect }) => {
    const settings = resolvedSettings({
      calendar: { timeZone: NY },
      summaries: { lookbackDays: 1, chatsPerRun: 500 },
    });
    const report = await dailySummaryJob(env, settings, NOW, new OfflineChatModel());
    expect(report.days).toEqual(["2026-11-29"]);
    const shanghai = await dailySummaryJob(
      env,
      resolvedSettings({ summaries: { lookbackDays: 1 } }),
      NOW,
      new OfflineChatModel(),
    );
    expect(shanghai.days).toEqual(["2026-11-30"]);
  });

  it("the spend day is the calendar's; an invalid zone is refused and nothing is saved", async ({
    expect,
  }) => {
    const put = (body: unknown) =>
      exports.default.fetch(
        new Request("https://bot.test/api/settings", admin({ method: "PUT", body: JSON.stringify(body) })),
      );
    expect((await put({ calendar: { timeZone: NY } })).status).toBe(200);
    const usage = (await (
      await exports.default.fetch(new Request("https://bot.test/api/usage", admin()))
    ).json()) as {
      spend: { timeZone: string; day: string };
    };
    expect(usage.spend.timeZone).toBe(NY);
    expect(usage.spend.day).toBe(new Date().toLocaleDateString("en-CA", { timeZone: NY }));

    const before = await env.DB.prepare(
      "SELECT value, updated_at FROM settings WHERE key = 'config'",
    ).first();
    for (const [body, field] of [
      [{ calendar: { timeZone: "Mars/Olympus_Mons" } }, "calendar.timeZone"],
      [{ calendar: { timeZone: "" } }, "calendar.timeZone"],
      // The zone is one setting: the old per-section zones are unknown keys.
      [{ spend: { timeZone: "UTC" } }, "spend"],
      [{ summaries: { timeZone: "UTC" } }, "summaries"],
    ] as const) {
      const res = await put(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid", field });
    }
    expect(
      await env.DB.prepare("SELECT value, updated_at FROM settings WHERE key = 'config'").first(),
    ).toEqual(before);
    await env.DB.prepare("DELETE FROM settings WHERE key = 'config'").run();
    settingsCache.invalidate();
  });

  it("a layer stored before the rename keeps every setting: its old zone is read as calendar.timeZone", async ({
    expect,
  }) => {
    const stored = { spend: { timeZone: NY, globalDailyTokens: 1234 }, summaries: { timeZone: "UTC" } };
    await storeSettings(env, stored);
    try {
      const settings = await loadSettings(env);
      expect(settings.calendar.timeZone).toBe(NY);
      expect(settings.spend.globalDailyTokens).toBe(1234);
    } finally {
      await env.DB.prepare("DELETE FROM settings WHERE key = 'config'").run();
      settingsCache.invalidate();
    }
  });
});
