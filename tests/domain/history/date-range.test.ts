import { parseDateBound, resolveDateRange } from "@src/domain/history/date-range";
import { describe, it } from "vitest";

const TZ = "Asia/Shanghai";
/** Tuesday 2026-12-01 15:00 in Shanghai. */
const NOW = Date.parse("2026-12-01T15:00:00+08:00");
const ref = { now: NOW, timeZone: TZ };
const day = (iso: string) => Date.parse(`${iso}T00:00:00+08:00`);

/** The range as [first day, day after the last] in local dates. */
function days(text: string, r = ref): [string, string] | null {
  const range = resolveDateRange(text, r);
  if (!range) return null;
  const fmt = (t: number) => new Date(t + 8 * 3_600_000).toISOString().slice(0, 10);
  return [fmt(range.since), fmt(range.until)];
}

describe("date resolution against the turn time", () => {
  it("reads Chinese days relative to today", ({ expect }) => {
    expect(days("小明昨天说了什么")).toEqual(["2026-11-30", "2026-12-01"]);
    expect(days("前天的消息")).toEqual(["2026-11-29", "2026-11-30"]);
    expect(days("三天前聊的")).toEqual(["2026-11-28", "2026-11-29"]);
    expect(days("今天早上说的")).toEqual(["2026-12-01", "2026-12-02"]);
  });

  it("reads a weekday of last week as that day, not a week", ({ expect }) => {
    expect(days("上周三我们聊了什么")).toEqual(["2026-11-25", "2026-11-26"]);
    expect(days("last Friday")).toEqual(["2026-11-27", "2026-11-28"]);
  });

  it("puts a date without a year at its latest occurrence before now", ({ expect }) => {
    expect(days("5月3日提到的")).toEqual(["2026-05-03", "2026-05-04"]);
    expect(days("4月27号")).toEqual(["2026-04-27", "2026-04-28"]);
    // chrono alone would pick the nearer May 2nd, the one in 2027.
    expect(days("I mentioned on May 2nd that I went to the museum")).toEqual(["2026-05-02", "2026-05-03"]);
    expect(days("12月25日")).toEqual(["2025-12-25", "2025-12-26"]);
  });

  it("resolves against another reference time (a stored question's)", ({ expect }) => {
    const asked = { now: Date.parse("2023-05-07T12:00:00+08:00"), timeZone: TZ };
    expect(days("我曾经在5月2日提到过我去了博物馆", asked)).toEqual(["2023-05-02", "2023-05-03"]);
    expect(days("On April 27th, what did I say?", asked)).toEqual(["2023-04-27", "2023-04-28"]);
  });

  it("reads whole weeks Monday to Monday, and whole months", ({ expect }) => {
    expect(days("小明上周说了什么")).toEqual(["2026-11-23", "2026-11-30"]);
    expect(days("这周")).toEqual(["2026-11-30", "2026-12-07"]);
    expect(days("what happened last week")).toEqual(["2026-11-23", "2026-11-30"]);
    expect(days("上个月")).toEqual(["2026-11-01", "2026-12-01"]);
    expect(days("last month", { now: Date.parse("2026-01-15T10:00:00+08:00"), timeZone: TZ })).toEqual([
      "2025-12-01",
      "2026-01-01",
    ]);
  });

  it("reads a month without a day as the whole month, and years whole", ({ expect }) => {
    expect(days("When did Melanie go camping in June?")).toEqual(["2026-06-01", "2026-07-01"]);
    expect(days("去年说过的")).toEqual(["2025-01-01", "2026-01-01"]);
    expect(days("what did we plan last year")).toEqual(["2025-01-01", "2026-01-01"]);
  });

  it("keeps the week boundary at local midnight on Monday, also on a Sunday night or Monday morning", ({
    expect,
  }) => {
    const sundayNight = { now: Date.parse("2026-11-29T23:30:00+08:00"), timeZone: TZ };
    const mondayMorning = { now: Date.parse("2026-11-30T00:10:00+08:00"), timeZone: TZ };
    expect(days("上周", sundayNight)).toEqual(["2026-11-16", "2026-11-23"]);
    expect(days("上周", mondayMorning)).toEqual(["2026-11-23", "2026-11-30"]);
    // 00:10 in Shanghai is still Sunday in UTC: the week follows the local day.
    expect(days("昨天", mondayMorning)).toEqual(["2026-11-29", "2026-11-30"]);
  });

  it("names the words it read, and returns null when the text names no day", ({ expect }) => {
    expect(resolveDateRange("上周三我们聊了什么", ref)?.phrase).toBe("上周三");
    expect(resolveDateRange("海边烧烤", ref)).toBeNull();
    expect(resolveDateRange("what did Caroline research?", ref)).toBeNull();
  });

  it("takes ISO dates and phrases as since/until bounds, and refuses anything else", ({ expect }) => {
    expect(parseDateBound("2026-05-03", "since", ref)).toEqual({ ok: true, at: day("2026-05-03") });
    expect(parseDateBound("2026-05-03", "until", ref)).toEqual({ ok: true, at: day("2026-05-04") });
    expect(parseDateBound("昨天", "until", ref)).toEqual({ ok: true, at: day("2026-12-01") });
    expect(parseDateBound("2026-05-03T20:00:00+08:00", "since", ref)).toEqual({
      ok: true,
      at: Date.parse("2026-05-03T20:00:00+08:00"),
    });
    const bad = parseDateBound("不知道什么时候", "since", ref);
    expect(bad.ok).toBe(false);
  });

  it("reads the days in the zone it is given", ({ expect }) => {
    // 2026-12-01 02:00 in Shanghai is still 2026-11-30 in New York: "yesterday" differs.
    const early = Date.parse("2026-12-01T02:00:00+08:00");
    const ny = { now: early, timeZone: "America/New_York" };
    expect(resolveDateRange("昨天", ny)).toMatchObject({
      since: Date.parse("2026-11-29T00:00:00-05:00"),
      until: Date.parse("2026-11-30T00:00:00-05:00"),
    });
    expect(days("昨天", { now: early, timeZone: TZ })).toEqual(["2026-11-30", "2026-12-01"]);
    expect(parseDateBound("2026-07-01", "since", ny)).toEqual({
      ok: true,
      at: Date.parse("2026-07-01T00:00:00-04:00"),
    });
  });
});
