import { DEFAULT_SETTINGS, resolveSettings } from "@src/domain/config/settings";
import { DEFAULT_SPEND_SETTINGS } from "@src/domain/config/spend-settings";
import { ManualClock } from "@src/domain/kernel/clock";
import { cappedReply, decideSpend, tokensOf } from "@src/domain/spend/spend-cap";
import type { SpendDay } from "@src/domain/spend/spend-day";
import { dailySpendGate } from "@src/domain/spend/spend-gate";
import { describe, it } from "vitest";

const caps = { chatDailyTokens: 100, globalDailyTokens: 1000 };

describe("decideSpend", () => {
  it("allows a call below both caps, refuses once a cap is reached", ({ expect }) => {
    expect(decideSpend({ chat: 99, global: 999 }, caps)).toEqual({ allowed: true });
    expect(decideSpend({ chat: 100, global: 100 }, caps)).toEqual({
      allowed: false,
      scope: "chat",
      used: 100,
      cap: 100,
    });
    expect(decideSpend({ chat: 0, global: 1000 }, caps)).toEqual({
      allowed: false,
      scope: "global",
      used: 1000,
      cap: 1000,
    });
  });

  it("a null cap never refuses", ({ expect }) => {
    const off = { ...caps, chatDailyTokens: null, globalDailyTokens: null };
    expect(decideSpend({ chat: 1e12, global: 1e12 }, off)).toEqual({ allowed: true });
  });

  it("counts prompt and completion tokens, unreported as zero", ({ expect }) => {
    expect(tokensOf({ promptTokens: 7, completionTokens: 3 })).toBe(10);
    expect(tokensOf({ promptTokens: null, completionTokens: 3 })).toBe(3);
  });

  it("says in the reply which cap was reached", ({ expect }) => {
    expect(cappedReply({ allowed: false, scope: "chat", used: 120, cap: 100 })).toContain("这个聊天今天");
    expect(cappedReply({ allowed: false, scope: "global", used: 1200, cap: 1000 })).toContain("所有聊天");
  });
});

describe("spend settings", () => {
  it("are on by default, with the day in the calendar's Asia/Shanghai", ({ expect }) => {
    expect(DEFAULT_SETTINGS.spend).toEqual(DEFAULT_SPEND_SETTINGS);
    expect(DEFAULT_SPEND_SETTINGS.chatDailyTokens).toBeGreaterThan(0);
    expect(DEFAULT_SETTINGS.calendar.timeZone).toBe("Asia/Shanghai");
  });

  it("refuse a bad value with the field named", ({ expect }) => {
    for (const [spend, field] of [
      [{ chatDailyTokens: -5 }, "spend.chatDailyTokens"],
      [{ globalDailyTokens: 1.5 }, "spend.globalDailyTokens"],
      [{ chatDailyTokens: "lots" }, "spend.chatDailyTokens"],
      [{ perUser: 5 }, "spend"],
      // The day's zone is the calendar's: the section has no zone of its own.
      [{ timeZone: "UTC" }, "spend"],
    ] as const) {
      const r = resolveSettings({ spend });
      expect(r.ok ? null : r.error.field).toBe(field);
    }
  });

  it("accept null as no cap", ({ expect }) => {
    const r = resolveSettings({ spend: { chatDailyTokens: null } });
    expect(r.ok && r.value.spend).toEqual({ ...DEFAULT_SPEND_SETTINGS, chatDailyTokens: null });
  });
});

describe("dailySpendGate", () => {
  const T0 = Date.parse("2026-12-01T10:00:00Z");
  function ledger(chat: number, global: number) {
    const reads: SpendDay[] = [];
    return {
      reads,
      spent: async (_chat: string, day: SpendDay) => {
        reads.push(day);
        return { chat, global };
      },
    };
  }

  /** The gate of group G under `caps`, in UTC, with `unflushed` calls not yet in the ledger. */
  const groupGate = (l: ReturnType<typeof ledger>, clock: ManualClock, unflushed: number) =>
    dailySpendGate({
      chatKey: "qq:group:G",
      caps,
      ledger: l,
      clock,
      timeZone: "UTC",
      unflushed: () => unflushed,
    });

  it("reads the recorded spend once and adds the turn's own calls to it", async ({ expect }) => {
    const l = ledger(50, 500);
    const clock = new ManualClock(T0);
    const gate = groupGate(l, clock, 25);
    expect((await gate.check([])).allowed).toBe(true);
    const call = { promptTokens: 10, completionTokens: 5, at: T0 };
    // 50 recorded + 25 unflushed + this turn's calls:
    expect((await gate.check([call])).allowed).toBe(true);
    expect(await gate.check([call, call])).toMatchObject({ allowed: false, scope: "chat", used: 105 });
    expect(l.reads).toHaveLength(1);
  });

  it("reads again when the day changes, and only counts calls of that day", async ({ expect }) => {
    const l = ledger(99, 0);
    const clock = new ManualClock(T0);
    const gate = groupGate(l, clock, 0);
    const call = { promptTokens: 10, completionTokens: 0, at: T0 };
    expect((await gate.check([call])).allowed).toBe(false);
    clock.advance(24 * 3_600_000);
    // Yesterday's call no longer counts: 99 < 100.
    expect((await gate.check([call])).allowed).toBe(true);
    expect(l.reads.map((d) => d.day)).toEqual(["2026-12-01", "2026-12-02"]);
  });

  it("reads nothing when both caps are off", async ({ expect }) => {
    const l = ledger(1e9, 1e9);
    const off = { ...caps, chatDailyTokens: null, globalDailyTokens: null };
    const gate = dailySpendGate({
      chatKey: "c",
      caps: off,
      timeZone: "UTC",
      ledger: l,
      clock: new ManualClock(T0),
      unflushed: () => 0,
    });
    expect((await gate.check([])).allowed).toBe(true);
    expect(l.reads).toHaveLength(0);
  });
});
