import { dayBounds, daysBefore, localDay } from "@src/domain/kernel/local-day";
import { describe, it } from "vitest";

describe("local days", () => {
  it("cuts days at midnight of the zone, not UTC", ({ expect }) => {
    // 2026-11-30 16:30 UTC is 2026-12-01 00:30 in Shanghai.
    const t = Date.UTC(2026, 10, 30, 16, 30);
    expect(localDay(t, "Asia/Shanghai")).toBe("2026-12-01");
    expect(localDay(t, "UTC")).toBe("2026-11-30");
    expect(dayBounds("2026-12-01", "Asia/Shanghai")).toEqual({
      start: Date.UTC(2026, 10, 30, 16),
      end: Date.UTC(2026, 11, 1, 16),
    });
    expect(daysBefore(t, "Asia/Shanghai", 2)).toEqual(["2026-11-30", "2026-11-29"]);
  });

  it("has 23- and 25-hour days across daylight saving changes", ({ expect }) => {
    const spring = dayBounds("2026-03-08", "America/New_York");
    const autumn = dayBounds("2026-11-01", "America/New_York");
    expect(spring.start).toBe(Date.UTC(2026, 2, 8, 5));
    expect(spring.end - spring.start).toBe(23 * 3_600_000);
    expect(autumn.end - autumn.start).toBe(25 * 3_600_000);
    expect(localDay(spring.end - 1, "America/New_York")).toBe("2026-03-08");
    expect(localDay(spring.end, "America/New_York")).toBe("2026-03-09");
  });

  it("refuses a string that is not a day", ({ expect }) => {
    expect(() => dayBounds("2026-3-8", "UTC")).toThrow("is not a YYYY-MM-DD day");
  });
});
