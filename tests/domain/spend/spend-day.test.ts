import { isTimeZone } from "@src/domain/kernel/local-day";
import { spendDay } from "@src/domain/spend/spend-day";
import { describe, it } from "vitest";

const at = (iso: string) => Date.parse(iso);

describe("spendDay", () => {
  it("starts the day at midnight in Asia/Shanghai (16:00 UTC the day before)", ({ expect }) => {
    expect(spendDay(at("2026-12-01T15:59:59.999Z"), "Asia/Shanghai")).toEqual({
      day: "2026-12-01",
      start: at("2026-11-30T16:00:00Z"),
      end: at("2026-12-01T16:00:00Z"),
    });
    expect(spendDay(at("2026-12-01T16:00:00Z"), "Asia/Shanghai")).toEqual({
      day: "2026-12-02",
      start: at("2026-12-01T16:00:00Z"),
      end: at("2026-12-02T16:00:00Z"),
    });
  });

  it("in UTC the day is the UTC calendar day", ({ expect }) => {
    expect(spendDay(at("2026-12-31T23:59:59Z"), "UTC")).toEqual({
      day: "2026-12-31",
      start: at("2026-12-31T00:00:00Z"),
      end: at("2027-01-01T00:00:00Z"),
    });
  });

  it("a daylight-saving day is 23 or 25 hours long", ({ expect }) => {
    const spring = spendDay(at("2026-03-08T12:00:00Z"), "America/New_York");
    expect(spring).toEqual({
      day: "2026-03-08",
      start: at("2026-03-08T05:00:00Z"),
      end: at("2026-03-09T04:00:00Z"),
    });
    const autumn = spendDay(at("2026-11-01T12:00:00Z"), "America/New_York");
    expect(autumn.end - autumn.start).toBe(25 * 3_600_000);
  });

  it("knows IANA zones and refuses anything else", ({ expect }) => {
    expect(isTimeZone("Asia/Shanghai")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});
