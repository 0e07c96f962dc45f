// Own file: identity with a declared person is set through the stored settings. A reminder set
// in a private chat never speaks in a group — not pushed there, not riding along with a group
// reply, not listed or cancellable there — even when the same person (one OneBot account in
// both, or QQ official accounts linked into one declared person) talks in the group after it
// is due. Only its own private chat hears it.

import { beforeAll, describe, expect, it } from "vitest";
import { c2cBodyWithIdentity, groupBodyWithIdentity, uid } from "../support/identity";
import { declared, qqUsers, storeIdentity } from "../support/identity-settings";
import { uid as tagOf } from "../support/memory";
import { eventIdOf, postQq, turnDone } from "../support/qq-events";
import { alarmNow, makeDue, pushesOfEachTest, reminderRows, sayOneBot } from "../support/reminders";

const ONEBOT_USER = 300_000 + Math.floor(Math.random() * 800_000_000);
const ONEBOT_GROUP = 400_000 + Math.floor(Math.random() * 800_000_000);
const ALICE_GROUP = uid("ALICEG");
const ALICE_PRIVATE = uid("ALICEP");
const UNION = uid("UNION");
const GROUP = uid("G");

beforeAll(() =>
  storeIdentity(
    {
      people: [
        declared("alice", "爱丽丝", [...qqUsers(ALICE_GROUP, ALICE_PRIVATE), `onebot:user:${ONEBOT_USER}`]),
      ],
      admins: [],
    },
    { follow: { groups: ["*"] } },
  ),
);

const pushes = pushesOfEachTest();

async function qq(body: string, chat: string): Promise<string> {
  expect((await postQq(body)).status).toBe(200);
  return (await turnDone(chat, eventIdOf(body), 20_000)).replies.map((r) => r.text).join("\n");
}

describe("a reminder set in a private chat", () => {
  it("is pushed to that private chat only, never to a group the same OneBot account talks in", async () => {
    const secret = `复诊${tagOf()}`;
    const privateChat = `onebot:private:${ONEBOT_USER}`;
    const groupChat = `onebot:group:${ONEBOT_GROUP}`;
    expect(await sayOneBot({ user: ONEBOT_USER, text: `提醒我明天八点去医院${secret}` })).toContain(secret);
    // The same person in a group, before and after it is due: the group neither lists nor cancels it.
    const listed = await sayOneBot({ user: ONEBOT_USER, group: ONEBOT_GROUP, text: "/reminders" });
    expect(listed).toContain("没有待发的提醒");
    expect(listed).not.toContain(secret);
    const cancel = await sayOneBot({ user: ONEBOT_USER, group: ONEBOT_GROUP, text: "/reminders cancel 1" });
    expect(cancel).toContain("没有待发的提醒 #1");
    expect((await reminderRows(privateChat))[0]?.state).toBe("open");
    await makeDue(privateChat);
    const after = await sayOneBot({ user: ONEBOT_USER, group: ONEBOT_GROUP, text: "我的提醒呢？" });
    await alarmNow(groupChat);
    await alarmNow(privateChat);
    expect(after).not.toContain(secret);
    const toGroup = pushes.sent.filter((s) => s.chat !== privateChat);
    expect(toGroup.length).toBeGreaterThan(0);
    expect(JSON.stringify(toGroup)).not.toContain(secret);
    expect(pushes.sent.filter((s) => s.reply === "none")).toEqual([
      { chat: privateChat, text: `⏰ @小明 提醒：去医院${secret}`, reply: "none" },
    ]);
  });

  it("rides only with its own private chat's reply on QQ, not with a group reply to the linked person", async () => {
    const secret = `吃药${tagOf()}`;
    const privateChat = `qq:private:${ALICE_PRIVATE}`;
    const groupChat = `qq:group:${GROUP}`;
    const inPrivate = (text: string) =>
      qq(c2cBodyWithIdentity({ user: ALICE_PRIVATE, union: UNION, text }), privateChat);
    const inGroup = (text: string) =>
      qq(groupBodyWithIdentity({ group: GROUP, member: ALICE_GROUP, union: UNION, text }), groupChat);
    expect(await inPrivate(`10分钟后提醒我${secret}`)).toContain("QQ 官方机器人不能主动发消息");
    await makeDue(privateChat);
    for (const text of ["/ping", "/reminders", "提醒我什么来着？", "/reminders cancel 1"]) {
      expect(await inGroup(text)).not.toContain(secret);
    }
    expect((await reminderRows(privateChat))[0]?.state).toBe("open");
    expect(await inPrivate("/ping")).toContain(`⏰ 提醒：${secret}`);
    expect(JSON.stringify(pushes.sent.filter((s) => s.chat !== privateChat))).not.toContain(secret);
  });
});
