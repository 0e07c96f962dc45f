import { resolveSettings } from "@src/domain/config/settings";
import { describe, it } from "vitest";

describe("summaries and backfill settings", () => {
  it("default to Asia/Shanghai and bounded backfill", ({ expect }) => {
    const r = resolveSettings({});
    expect(r.ok && r.value.calendar.timeZone).toBe("Asia/Shanghai");
    expect(r.ok && r.value.backfill).toMatchObject({ enabled: true, maxMessages: 2000, pagesPerRun: 20 });
  });

  it("refuse an unknown time zone, an unknown key and an out-of-range bound, naming the field", ({
    expect,
  }) => {
    expect(resolveSettings({ calendar: { timeZone: "Mars/Olympus" } })).toMatchObject({
      ok: false,
      error: { field: "calendar.timeZone", reason: expect.stringContaining("time zone") },
    });
    expect(resolveSettings({ summaries: { timezone: "UTC" } })).toMatchObject({
      ok: false,
      error: { field: "summaries", reason: "unknown setting 'timezone'" },
    });
    expect(resolveSettings({ backfill: { pageSize: 0 } })).toMatchObject({
      ok: false,
      error: { field: "backfill.pageSize" },
    });
    expect(resolveSettings({ calendar: { timeZone: "Europe/Berlin" } })).toMatchObject({ ok: true });
  });
});
