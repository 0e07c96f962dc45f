import { resolveSettings } from "@src/domain/config/settings";
import { liftRenamedSettings } from "@src/domain/config/settings-renames";
import { describe, expect, it } from "vitest";

describe("liftRenamedSettings", () => {
  it("reads an old spend.timeZone as calendar.timeZone and keeps the section's other keys", () => {
    const layer = { spend: { timeZone: "UTC", globalDailyTokens: 5000 } };
    const lifted = liftRenamedSettings(layer);
    expect(lifted).toEqual({ spend: { globalDailyTokens: 5000 }, calendar: { timeZone: "UTC" } });
    // The layer as stored would be refused whole; lifted, its other settings hold.
    expect(resolveSettings(layer).ok).toBe(false);
    const resolved = resolveSettings(lifted);
    expect(resolved.ok && resolved.value.calendar.timeZone).toBe("UTC");
  });

  it("a calendar.timeZone already set wins over the old keys", () => {
    const lifted = liftRenamedSettings({
      summaries: { timeZone: "UTC" },
      calendar: { timeZone: "Europe/Berlin" },
    });
    expect(lifted).toEqual({ summaries: {}, calendar: { timeZone: "Europe/Berlin" } });
  });

  it("spend wins over summaries when both were set", () => {
    const lifted = liftRenamedSettings({ spend: { timeZone: "UTC" }, summaries: { timeZone: "Asia/Tokyo" } });
    expect(lifted).toEqual({ spend: {}, summaries: {}, calendar: { timeZone: "UTC" } });
  });

  it("leaves a layer without renamed keys as it was, and an invalid old zone still fails", () => {
    const layer = { follow: { groups: ["*"] } };
    expect(liftRenamedSettings(layer)).toEqual(layer);
    const lifted = liftRenamedSettings({ spend: { timeZone: "Mars/Olympus" } });
    const resolved = resolveSettings(lifted);
    expect(resolved.ok).toBe(false);
    expect(!resolved.ok && resolved.error.field).toBe("calendar.timeZone");
  });
});
