// Reminders in the chat object, end to end through the OneBot webhook: the alarm pushes a due
// reminder once, into the chat it was set in; a second or retried alarm sends nothing more, even
// when the object died right after the platform took the message; the reminder and its alarm
// survive an eviction; a cancelled one never fires; QQ official reminders ride with the next reply.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { c2cBodyWithIdentity, uid } from "../support/identity";
import { eventIdOf, postQq, turnDone } from "../support/qq-events";
import { alarmNow, alarmOf, makeDue, pushesOfEachTest, reminderRows, sayOneBot } from "../support/reminders";

const user = () => 100_000 + Math.floor(Math.random() * 800_000_000);
const pushes = pushesOfEachTest();
const pushed = () => pushes.sent.filter((s) => s.reply === "none");

describe("reminders in the chat object", () => {
  it("pushes a due OneBot reminder once, to its own chat, and clears its words", async () => {
    const u = user();
    const chat = `onebot:private:${u}`;
    const set = await sayOneBot({ user: u, text: "提醒我明天八点开会" });
    expect(set).toContain("提醒你：开会");
    const [row] = await reminderRows(chat);
    expect(row).toMatchObject({ id: 1, state: "open", text: "开会" });
    // The alarm is set no later than the reminder (an object has one alarm for all its work).
    const alarm = await alarmOf(chat);
    expect(alarm).not.toBeNull();
    expect(alarm ?? Infinity).toBeLessThanOrEqual(row?.due_at ?? 0);
    await makeDue(chat);
    expect(await runDurableObjectAlarm(env.CHAT_SESSION.getByName(chat))).toBe(true);
    expect(pushed()).toEqual([{ chat, text: "⏰ @小明 提醒：开会", reply: "none" }]);
    await alarmNow(chat);
    await alarmNow(chat);
    expect(pushed()).toHaveLength(1);
    expect(await reminderRows(chat)).toMatchObject([{ id: 1, state: "sent", text: "", attempts: 1 }]);
  });

  it("never sends twice when the object dies after the platform accepted the message", async () => {
    const u = user();
    const chat = `onebot:private:${u}`;
    await sayOneBot({ user: u, text: "10分钟后提醒我关火" });
    await makeDue(chat);
    pushes.dieAfterDelivering = true;
    await alarmNow(chat);
    await evictDurableObject(env.CHAT_SESSION.getByName(chat)).catch(() => {});
    await alarmNow(chat);
    await alarmNow(chat);
    expect(pushed().map((p) => p.text)).toEqual(["⏰ @小明 提醒：关火"]);
    expect((await reminderRows(chat))[0]?.state).not.toBe("open");
  });

  it("survives an eviction: the row and its alarm are in storage, and the fresh object fires it", async () => {
    const u = user();
    const chat = `onebot:private:${u}`;
    await sayOneBot({ user: u, text: "记得提醒我后天下午3点交房租" });
    await evictDurableObject(env.CHAT_SESSION.getByName(chat));
    expect(await reminderRows(chat)).toMatchObject([{ state: "open", text: "交房租" }]);
    expect(await alarmOf(chat)).not.toBeNull();
    expect(await sayOneBot({ user: u, text: "/reminders" })).toMatch(
      /#1 \d{4}-\d{2}-\d{2} 15:00 \+08:00 交房租/,
    );
    await makeDue(chat);
    await evictDurableObject(env.CHAT_SESSION.getByName(chat));
    expect(await runDurableObjectAlarm(env.CHAT_SESSION.getByName(chat))).toBe(true);
    expect(pushed().map((p) => [p.chat, p.text])).toEqual([[chat, "⏰ @小明 提醒：交房租"]]);
  });

  it("never fires a cancelled reminder, and a bad id changes nothing", async () => {
    const u = user();
    const chat = `onebot:private:${u}`;
    await sayOneBot({ user: u, text: "提醒我明天9点取快递" });
    await sayOneBot({ user: u, text: "提醒我明天10点买菜" });
    expect(await sayOneBot({ user: u, text: "/reminders cancel 7" })).toContain("没有待发的提醒 #7");
    expect(await sayOneBot({ user: u, text: "/reminders cancel 一" })).toContain("不是提醒编号");
    expect((await reminderRows(chat)).map((r) => r.state)).toEqual(["open", "open"]);
    expect(await sayOneBot({ user: u, text: "/reminders 取消 1" })).toContain("已取消提醒 #1");
    await makeDue(chat);
    await alarmNow(chat);
    expect(pushed().map((p) => p.text)).toEqual(["⏰ @小明 提醒：买菜"]);
    expect((await reminderRows(chat)).map((r) => [r.state, r.text])).toEqual([
      ["cancelled", ""],
      ["sent", ""],
    ]);
  });

  it("sets one reminder for a redelivered request", async () => {
    const u = user();
    const chat = `onebot:private:${u}`;
    await sayOneBot({ user: u, text: "提醒我明天8点开会" });
    // A retried turn of the same event: the event id keys the reminder.
    const stub = env.CHAT_SESSION.getByName(chat);
    const again = await runInDurableObject(stub, async (_o, state) => {
      const { Reminders } = await import("@src/durable-objects/reminders");
      const book = new Reminders(state.storage);
      const [first] = await book.open();
      const eventId = state.storage.sql.exec<{ e: string }>("SELECT event_id AS e FROM reminders").one().e;
      const r = await book.add({
        eventId,
        setBy: null,
        setByName: null,
        text: "不该出现",
        dueAt: Date.now() + 60_000,
        now: Date.now(),
        delivery: "push",
        chat: { key: chat as never, channel: "onebot", targetType: "private", targetId: "x" },
        transport: "onebot",
      });
      return { first, again: r.ok ? r.value : null };
    });
    expect(again.again?.id).toBe(again.first?.id);
    expect(await reminderRows(chat)).toHaveLength(1);
  });

  it("says a QQ official reminder with the reply to the first message after it is due, once", async () => {
    const u = uid("U");
    const chat = `qq:private:${u}`;
    const say = async (text: string) => {
      const body = c2cBodyWithIdentity({ user: u, text });
      expect((await postQq(body)).status).toBe(200);
      return (await turnDone(chat, eventIdOf(body), 20_000)).replies.map((r) => r.text);
    };
    const set = await say("提醒我明天早上7点带伞");
    expect(set.join("\n")).toContain("QQ 官方机器人不能主动发消息");
    expect(await alarmNow(chat)).toBeUndefined();
    expect(pushed()).toEqual([]);
    expect(await say("/ping")).toEqual(["pong"]);
    await makeDue(chat);
    await alarmNow(chat);
    expect(pushed()).toEqual([]);
    expect(await say("/ping")).toEqual(["pong", "⏰ 提醒：带伞"]);
    expect(await say("/ping")).toEqual(["pong"]);
  });
});
