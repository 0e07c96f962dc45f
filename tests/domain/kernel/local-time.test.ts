// One clock: a time shown to a person is the wall clock of `calendar.timeZone` with its offset,
// and its day is the day "昨天", the daily summaries and the spend caps count in. Checked at the
// day boundary in Shanghai and in a zone west of UTC, so a hard-coded +8 cannot pass.

import { resolveDateRange } from "@src/domain/history/date-range";
import { daysBefore, lastDays, localDay } from "@src/domain/kernel/local-day";
import {
  formatLocalTime,
  localInputValue,
  localWeekdayZh,
  offsetLabel,
  parseLocalInput,
  withLocalTimes,
} from "@src/domain/kernel/local-time";
import { spendDay } from "@src/domain/spend/spend-day";
import { describe, it } from "vitest";

/** 2026-12-02T16:30Z: 12-03 00:30 in Shanghai, 12-02 08:30 in Los Angeles. */
const MESSAGE = Date.parse("2026-12-02T16:30:00Z");

describe("formatLocalTime", () => {
  it("shows the message after Shanghai's midnight on 12-03, with the offset", ({ expect }) => {
    expect(formatLocalTime(MESSAGE, "Asia/Shanghai")).toBe("2026-12-03 00:30 +08:00");
    expect(formatLocalTime(MESSAGE, "Asia/Shanghai", { seconds: true })).toBe("2026-12-03 00:30:00 +08:00");
    expect(localDay(MESSAGE, "Asia/Shanghai")).toBe("2026-12-03");
  });

  it("follows the configured zone, west of UTC and across daylight saving", ({ expect }) => {
    expect(formatLocalTime(MESSAGE, "America/Los_Angeles")).toBe("2026-12-02 08:30 -08:00");
    // One minute either side of Los Angeles' midnight (08:00 UTC in winter).
    expect(formatLocalTime(Date.parse("2026-12-03T07:59:00Z"), "America/Los_Angeles")).toBe(
      "2026-12-02 23:59 -08:00",
    );
    expect(formatLocalTime(Date.parse("2026-12-03T08:00:00Z"), "America/Los_Angeles")).toBe(
      "2026-12-03 00:00 -08:00",
    );
    expect(formatLocalTime(Date.parse("2026-07-01T06:30:00Z"), "America/Los_Angeles")).toBe(
      "2026-06-30 23:30 -07:00",
    );
  });

  it("writes UTC and quarter-hour offsets in full", ({ expect }) => {
    expect(formatLocalTime(MESSAGE, "UTC")).toBe("2026-12-02 16:30 +00:00");
    expect(offsetLabel(MESSAGE, "Asia/Kathmandu")).toBe("+05:45");
    expect(formatLocalTime(MESSAGE, "Asia/Kathmandu")).toBe("2026-12-02 22:15 +05:45");
  });

  it("names the local weekday, not UTC's", ({ expect }) => {
    expect(localWeekdayZh(MESSAGE, "Asia/Shanghai")).toBe("星期四");
    expect(localWeekdayZh(MESSAGE, "UTC")).toBe("星期三");
  });
});

describe("the shown day is the day the bot counts in", () => {
  it.for([
    ["Asia/Shanghai", "2026-12-03", Date.parse("2026-12-04T02:00:00Z")],
    ["America/Los_Angeles", "2026-12-02", Date.parse("2026-12-03T20:00:00Z")],
  ] as const)(
    "in %s the message's day %s is 昨天, yesterday's summary and that day's spend",
    ([zone, day, now], { expect }) => {
      expect(localDay(MESSAGE, zone)).toBe(day);
      expect(formatLocalTime(MESSAGE, zone).slice(0, 10)).toBe(day);
      const yesterday = resolveDateRange("昨天说了什么", { now, timeZone: zone });
      expect(yesterday && MESSAGE >= yesterday.since && MESSAGE < yesterday.until).toBe(true);
      expect(daysBefore(now, zone, 1)).toEqual([day]);
      expect(spendDay(MESSAGE, zone).day).toBe(day);
    },
  );

  it("lastDays buckets a chart's window by local midnight, oldest first", ({ expect }) => {
    const now = Date.parse("2026-12-04T02:00:00Z");
    const shanghai = lastDays(now, "Asia/Shanghai", 3);
    expect(shanghai.map((d) => d.day)).toEqual(["2026-12-02", "2026-12-03", "2026-12-04"]);
    const bucket = shanghai.find((d) => MESSAGE >= d.start && MESSAGE < d.end);
    expect(bucket?.day).toBe("2026-12-03");
    expect(shanghai[1]?.start).toBe(Date.parse("2026-12-02T16:00:00Z"));
    const la = lastDays(now, "America/Los_Angeles", 3);
    expect(la.map((d) => d.day)).toEqual(["2026-12-01", "2026-12-02", "2026-12-03"]);
    expect(la.find((d) => MESSAGE >= d.start && MESSAGE < d.end)?.day).toBe("2026-12-02");
    // Contiguous: each day ends where the next begins.
    expect(la[0]?.end).toBe(la[1]?.start);
  });
});

describe("audit details show their instants on the one clock", () => {
  it("turns every …At epoch into local time and leaves the rest as written", ({ expect }) => {
    const detail = { via: "api", expiresAt: MESSAGE, dueAt: MESSAGE, rows: 3, at: 5, lastAt: "x" };
    expect(withLocalTimes(detail, "Asia/Shanghai")).toEqual({
      via: "api",
      expiresAt: formatLocalTime(MESSAGE, "Asia/Shanghai"),
      dueAt: formatLocalTime(MESSAGE, "Asia/Shanghai"),
      rows: 3,
      at: 5,
      lastAt: "x",
    });
    expect(String(withLocalTimes(detail, "Asia/Shanghai").expiresAt)).toMatch(/ \+08:00$/);
  });
});

describe("a time a person types is read on the same clock", () => {
  it("reads a wall clock in the zone and writes it back the same way", ({ expect }) => {
    expect(parseLocalInput("2026-12-03T00:30", "Asia/Shanghai")).toBe(MESSAGE);
    expect(parseLocalInput(" 2026-12-03 00:30 ", "Asia/Shanghai")).toBe(MESSAGE);
    expect(parseLocalInput("2026-12-02T08:30", "America/Los_Angeles")).toBe(MESSAGE);
    expect(localInputValue(MESSAGE, "Asia/Shanghai")).toBe("2026-12-03T00:30");
    expect(localInputValue(MESSAGE, "America/Los_Angeles")).toBe("2026-12-02T08:30");
    // Summer time in Los Angeles: -07:00.
    expect(parseLocalInput("2026-07-01T12:00", "America/Los_Angeles")).toBe(
      Date.parse("2026-07-01T19:00:00Z"),
    );
  });

  it("refuses what names no instant: other shapes, days off the calendar, a skipped hour", ({ expect }) => {
    for (const value of ["明天", "2026-12-03", "2026-02-31T10:00", "2026-12-03T24:00", "1765362600000", ""])
      expect(parseLocalInput(value, "Asia/Shanghai")).toBeNull();
    // 02:30 on 2026-03-08 does not happen in Los Angeles: the clocks jump from 02:00 to 03:00.
    expect(parseLocalInput("2026-03-08T02:30", "America/Los_Angeles")).toBeNull();
  });
});
