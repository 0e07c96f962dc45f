// "提醒我…" and /reminders without a model (they answer as a command, before the model): set, list with local times and offset, cancel by the setter or an admin only, bad
// ids refused without a change, QQ told up front that it cannot push, credentials masked.

import { QQ_DELIVERY_NOTE } from "@src/domain/agent/commands/reminder-commands";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import { describe, expect, it } from "vitest";
import { ADMIN, MEMBER, withIdentity } from "../../fakes/identity-settings";
import { InMemoryReminders } from "../../fakes/in-memory-reminders";
import { messageEvent } from "../../fakes/inbound";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { turnContext } from "../../support/turn-context";

/** 2023-11-15 06:13 in Shanghai. */
const NOW = TEST_NOW;

async function say(book: InMemoryReminders | undefined, chat: string, sender: string, text: string) {
  const event = messageEvent({ chat, text, sender: sender.split(":")[2] ?? sender });
  const result = await runTurn(
    turnContext(event, {
      text,
      settings: withIdentity(),
      now: NOW,
    }),
    turnPorts(book ? { reminders: book } : {}),
    defaultTurnRegistry(),
  );
  if (!result.ok) throw new Error("turn failed");
  return { reply: result.value.replies.join("\n"), audit: result.value.audit, command: result.value.command };
}

describe("reminders in a turn", () => {
  it("sets one offline, lists it with its local time and offset, and the setter cancels it", async () => {
    const book = new InMemoryReminders();
    const set = await say(book, "onebot:private:10001", "onebot:user:10001", "记得提醒我明天早上8点交报告");
    expect(set.command).toBe("reminder");
    expect(set.reply).toContain("2023-11-16 08:00 +08:00 提醒你：交报告");
    expect(set.reply).toContain("#1");
    expect(set.reply).not.toContain(QQ_DELIVERY_NOTE);
    expect(book.rows[0]?.chat.key).toBe("onebot:private:10001");
    expect(book.rows[0]?.delivery).toBe("push");
    const list = await say(book, "onebot:private:10001", "onebot:user:10001", "/reminders");
    expect(list.reply).toContain("#1 2023-11-16 08:00 +08:00 交报告");
    const cancelled = await say(book, "onebot:private:10001", "onebot:user:10001", "/reminders 取消 1");
    expect(cancelled.reply).toContain("已取消提醒 #1");
    expect(cancelled.audit).toMatchObject([{ action: "reminder.cancel", outcome: "ok" }]);
    expect((await say(book, "onebot:private:10001", "onebot:user:10001", "/reminders")).reply).toContain(
      "没有待发的提醒",
    );
  });

  it("tells a QQ official chat, when it is set, that the reminder comes with its next message", async () => {
    const book = new InMemoryReminders();
    const set = await say(book, "qq:private:U1", "qq:user:U1", "10分钟后提醒我关火");
    expect(set.reply).toContain("2023-11-15 06:23 +08:00");
    expect(set.reply).toContain(QQ_DELIVERY_NOTE);
    expect(book.rows[0]?.delivery).toBe("next-message");
  });

  it("refuses a past time and asks for a missing one, setting nothing", async () => {
    const book = new InMemoryReminders();
    const past = await say(book, "qq:group:G1", MEMBER, "今天凌晨1点提醒我吃药");
    expect(past.reply).toContain("2023-11-15 01:00 +08:00 已经过去了");
    const none = await say(book, "qq:group:G1", MEMBER, "提醒我开会");
    expect(none.reply).toContain("要在什么时候提醒你");
    expect(book.rows).toHaveLength(0);
  });

  it("lets only the setter or an admin cancel; other and bad ids change nothing", async () => {
    const book = new InMemoryReminders();
    await say(book, "qq:group:G1", MEMBER, "提醒我明天下午3点开会");
    const other = await say(book, "qq:group:G1", "qq:user:SOMEONE", "/reminders cancel 1");
    expect(other.reply).toContain("不是你设置的");
    for (const bad of [
      "/reminders cancel abc",
      "/reminders cancel 99",
      "/reminders cancel",
      "/reminders cancel 1; 2",
    ]) {
      const answer = await say(book, "qq:group:G1", MEMBER, bad);
      expect(answer.reply).toMatch(/不是提醒编号|没有待发的提醒 #99/);
    }
    expect(book.rows[0]?.state).toBe("open");
    const admin = await say(book, "qq:group:G1", ADMIN, "/reminders cancel #1");
    expect(admin.reply).toContain("已取消提醒 #1");
    expect(book.rows[0]?.state).toBe("cancelled");
  });

  it("stores a reminder's words with credentials masked", async () => {
    const book = new InMemoryReminders();
    const secret = "ghp_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz";
    await say(book, "onebot:private:10001", "onebot:user:10001", `提醒我明天9点把令牌 ${secret} 换掉`);
    expect(book.rows).toHaveLength(1);
    expect(JSON.stringify(book.rows)).not.toContain(secret);
  });

  it("says reminders are unavailable where no book is given", async () => {
    expect((await say(undefined, "qq:group:G1", MEMBER, "提醒我明天8点开会")).reply).toBe(
      "这里不能设置提醒。",
    );
  });

  it("leaves thanks and questions about reminders to the model", async () => {
    const book = new InMemoryReminders();
    for (const text of ["谢谢你提醒我", "你昨天提醒我了吗", "别提醒我了"])
      expect((await say(book, "qq:group:G1", MEMBER, text)).command).toBeNull();
    expect(book.rows).toHaveLength(0);
  });
});
