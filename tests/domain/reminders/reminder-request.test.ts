// The reminder recogniser: wordings it was not written around, times read in the calendar's
// zone (the day boundary of Asia/Shanghai is not UTC's), past times refused, no time asked for,
// and the messages that only mention a reminder left to the model.

import { formatLocalTime } from "@src/domain/kernel/local-time";
import { learnedInPrivate } from "@src/domain/memory/origin";
import { resolveScopeFromLaneKey } from "@src/domain/memory/scope";
import { reminderLane } from "@src/domain/reminders/reminder";
import { readReminderRequest } from "@src/domain/reminders/reminder-request";
import { describe, expect, it } from "vitest";

const ZONE = "Asia/Shanghai";
/** Friday 2026-12-04 20:21 in Shanghai (12:21 UTC). */
const EVENING = Date.UTC(2026, 11, 4, 12, 21);
const clock = (now = EVENING) => ({ now, timeZone: ZONE });
const local = (at: number) => formatLocalTime(at, ZONE);

describe("readReminderRequest", () => {
  it.each([
    ["提醒我明天八点开会", "2026-12-05 08:00 +08:00", "开会"],
    ["提醒我明天八点去医院", "2026-12-05 08:00 +08:00", "去医院"],
    ["明天早上8点叫我起床", "2026-12-05 08:00 +08:00", "起床"],
    ["10分钟后提醒我喝水", "2026-12-04 20:31 +08:00", "喝水"],
    ["记得提醒我明天下午三点交报告", "2026-12-05 15:00 +08:00", "交报告"],
    ["@Akasha 半小时后提醒我一下关火", "2026-12-04 20:51 +08:00", "关火"],
    ["請提醒我後天早上七點開會", "2026-12-06 07:00 +08:00", "開會"],
    ["麻烦到点喊我一下：周五下午两点组会", "2026-12-11 14:00 +08:00", "组会"],
    ["提醒一下我 8:30 开会", "2026-12-05 08:30 +08:00", "开会"],
    ["remind me to call mom at 8pm tomorrow", "2026-12-05 20:00 +08:00", "call mom"],
    ["Remind me in 10 minutes to stretch", "2026-12-04 20:31 +08:00", "stretch"],
    ["can you remind me about the meeting at 3pm", "2026-12-05 15:00 +08:00", "the meeting"],
  ])("reads %s", (text, at, what) => {
    const r = readReminderRequest(text, clock());
    expect(r?.kind).toBe("set");
    if (r?.kind !== "set") return;
    expect(local(r.at)).toBe(at);
    expect(r.what).toBe(what);
  });

  it("reads 明天 by Shanghai's calendar, not UTC's, on both sides of the day boundary", () => {
    // 23:59 in Shanghai is still the same UTC day; 00:30 in Shanghai is the UTC day before.
    const lateNight = Date.UTC(2026, 11, 4, 15, 59);
    const afterMidnight = Date.UTC(2026, 11, 4, 16, 30);
    const a = readReminderRequest("提醒我明天八点开会", clock(lateNight));
    const b = readReminderRequest("提醒我明天八点开会", clock(afterMidnight));
    expect(a?.kind === "set" && local(a.at)).toBe("2026-12-05 08:00 +08:00");
    expect(b?.kind === "set" && local(b.at)).toBe("2026-12-06 08:00 +08:00");
    // 00:30 on the 5th: "今天八点" is still ahead, "今天0点" is gone.
    const today = readReminderRequest("提醒我今天八点开会", clock(afterMidnight));
    expect(today?.kind === "set" && local(today.at)).toBe("2026-12-05 08:00 +08:00");
    expect(readReminderRequest("提醒我今天凌晨0点开会", clock(afterMidnight))?.kind).toBe("past");
  });

  it("refuses a time that has passed, naming it", () => {
    const r = readReminderRequest("今天早上八点提醒我吃药", clock());
    expect(r?.kind).toBe("past");
    expect(r?.kind === "past" && local(r.at)).toBe("2026-12-04 08:00 +08:00");
  });

  it.each([
    "提醒我开会",
    "到时候叫我",
    "明天提醒我带伞",
    "明天记得提醒我带伞",
    "Remind me tomorrow",
    "提醒我一下",
  ])("asks for a time when %s names none", (text) => {
    expect(readReminderRequest(text, clock())?.kind).toBe("no-time");
  });

  it("refuses more than a year ahead", () => {
    expect(readReminderRequest("提醒我2028年1月1日上午9点交年报", clock())?.kind).toBe("too-far");
  });

  it.each([
    "谢谢你提醒我",
    "别提醒我了",
    "不用提醒我",
    "你昨天提醒我了吗",
    "昨天提醒我开会的事",
    "大家叫我小王",
    "你叫我什么",
    "明天八点开会",
    "I will remind myself tomorrow",
  ])("leaves %s to the model", (text) => {
    expect(readReminderRequest(text, clock())).toBeNull();
  });
});

describe("a reminder's cron lane", () => {
  it("is a lane of the private chat it was set in, reading that chat's scope only", () => {
    const lane = reminderLane("qq:private:U1" as never, 3);
    expect(lane).toBe("qq:private:U1:cron:reminder-3");
    expect(resolveScopeFromLaneKey(lane)).toEqual({ type: "chat", id: "qq:private:U1" });
    // Learned in private, like its chat: nothing it ever wrote could go public or to a group.
    expect(learnedInPrivate(lane)).toBe(true);
    expect(resolveScopeFromLaneKey(reminderLane("qq:group:G1" as never, 3))).toEqual({
      type: "chat",
      id: "qq:group:G1",
    });
  });
});
