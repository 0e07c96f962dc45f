import type { DayMessage } from "@src/domain/summary/day-message";
import { extractiveSummary } from "@src/domain/summary/extractive-summary";
import { describe, it } from "vitest";

const msg = (id: string, user: string, text: string, replyTo: string | null = null): DayMessage => ({
  messageId: id,
  ts: Number(id.slice(1)) * 1000,
  userId: user,
  nick: null,
  text,
  replyTo,
  direction: "in",
});

describe("extractive summary", () => {
  it("ranks the central message of the day's topic first and names the topic", ({ expect }) => {
    const day = [
      msg("m1", "a", "周末去露营吗"),
      msg("m2", "b", "露营要带帐篷和睡袋"),
      msg("m3", "c", "帐篷我有两顶，睡袋不够"),
      msg("m4", "d", "今天食堂的菜太咸了"),
      msg("m5", "a", "露营地在西湖边，帐篷可以租"),
    ];
    const { picked, keywords } = extractiveSummary(day, 3);
    // The off-topic message is never among the central ones; the picks keep the day's order.
    expect(picked.map((m) => m.messageId)).not.toContain("m4");
    expect(picked.map((m) => m.ts)).toEqual([...picked.map((m) => m.ts)].sort((a, b) => a - b));
    expect(["m2", "m3", "m5"]).toContain(extractiveSummary(day, 1).picked[0]?.messageId);
    expect(keywords.slice(0, 2).sort()).toEqual(["帐篷", "露营"]);
  });

  it("lifts a message many others replied to, but not replies to oneself", ({ expect }) => {
    const day = [
      msg("m1", "a", "下周三开版本评审会"),
      msg("m2", "b", "收到", "m1"),
      msg("m3", "c", "几点开始", "m1"),
      msg("m4", "d", "我的电脑风扇很吵，风扇要换了"),
      msg("m5", "d", "风扇换哪个牌子好", "m4"),
      msg("m6", "e", "风扇可以试试静音款"),
    ];
    expect(extractiveSummary(day, 1).picked.map((m) => m.messageId)).toEqual(["m1"]);
  });

  it("skips commands and bare media, and returns nothing for an empty day", ({ expect }) => {
    expect(extractiveSummary([msg("m1", "a", "/reset"), msg("m2", "b", "[图片]")], 3).picked).toEqual([]);
    expect(extractiveSummary([], 3)).toEqual({ keywords: [], picked: [] });
  });
});
