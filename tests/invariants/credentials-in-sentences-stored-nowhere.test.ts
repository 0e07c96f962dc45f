// docs/invariants.md#credentials-are-never-stored-in-memory: values people write as words,
// numerals, quotes, several tokens or further on in the sentence, or describe or read out
// ("八个八", "五 二 零 一", "大写A 小写b 然后123", a dial's turns), said in a private chat, in a
// group, after "我家wifi密码是" and as a request to remember, are kept nowhere: not in D1, its
// search index or the chat object, and not by dreaming.
import { beforeAll, describe, it } from "vitest";
import { CREDENTIAL_MASK } from "../../src/domain/privacy/credentials";
import {
  enableIdentityAndDreaming,
  logged,
  personAndGroup,
  REFUSED,
  sample,
  say,
} from "../support/credential-paths";
import { c2cBody, groupAtBody } from "../support/qq-events";
import { settled, storedAnywhere } from "../support/stored-anywhere";

beforeAll(enableIdentityAndDreaming);

/** Once both chats have settled and dreamed: how many of each chat's logged messages are masked. */
async function afterDreaming(chatKey: string, groupKey: string, privateMessages: number) {
  await settled(chatKey, { dreamed: true });
  await settled(groupKey);
  const masked = (rows: string[]) => rows.filter((r) => r.includes(CREDENTIAL_MASK)).length;
  return {
    privateMasked: masked(await logged(chatKey, privateMessages)),
    groupMasked: masked(await logged(groupKey, 2)),
  };
}

describe("a credential said as words, further on in a sentence, described or read out is stored nowhere", () => {
  it("in a private chat, in a group, asked to be remembered, and after dreaming", {
    timeout: 90_000,
  }, async ({ expect }) => {
    const { user, chatKey, group, groupKey } = personAndGroup("S");
    // Four messages, with the two requests below six turns: dreaming (every second turn) is
    // not left waiting.
    const inPrivate = [
      sample("小狗汪汪"),
      sample("九八七六五四"),
      [sample("correct horse battery staple"), sample("Qwe!2345")].join("\n"),
      sample("#2580"),
    ];
    for (const said of inPrivate) await say(c2cBody({ user, text: said }), chatKey);
    await say(groupAtBody({ group, member: user, text: sample("Lily@0520") }), groupKey);
    await say(
      groupAtBody({ group, member: user, text: sample("7f3c9a1b2e4d5f60718293a4b5c6d7e8") }),
      groupKey,
    );
    const remember = await say(c2cBody({ user, text: `记住：${sample("zhangsan0520")}` }), chatKey);
    expect(remember.replies[0]?.text).toBe(REFUSED);
    const command = await say(c2cBody({ user, text: `/remember ${sample("Luck#777")}` }), chatKey);
    expect(command.replies[0]?.text).toBe(REFUSED);

    // The paths ran: each message is in the log, its value masked.
    const logs = await afterDreaming(chatKey, groupKey, inPrivate.length + 2);
    expect(logs.privateMasked).toBeGreaterThanOrEqual(inPrivate.length);
    expect(logs.groupMasked).toBe(2);

    const needles = [
      "小狗汪汪",
      "九八七六五四",
      "horse battery",
      "Qwe!2345",
      "2580",
      "Lily@0520",
      "7f3c9a1b2e4d5f60718293a4b5c6d7e8",
      "zhangsan0520",
      "Luck#777",
    ];
    expect(await storedAnywhere(needles)).toEqual([]);
  });

  it("described or read out instead of typed: in a private chat, in a group, announced, asked to be remembered, and after dreaming", {
    timeout: 90_000,
  }, async ({ expect }) => {
    const { user, chatKey, group, groupKey } = personAndGroup("D");
    const inPrivate = [
      "wifi密码是八个八",
      "门禁你按 五 二 零 一 三 一 四 然后井号就开了",
      "我家wifi密码是",
      "俩六俩八",
    ];
    for (const said of inPrivate) await say(c2cBody({ user, text: said }), chatKey);
    for (const said of ["bike lock: three nines then a zero", "电脑开机密码 大写A 小写b 然后123"])
      await say(groupAtBody({ group, member: user, text: said }), groupKey);
    const remember = await say(c2cBody({ user, text: "记住：我的支付密码是六个6" }), chatKey);
    expect(remember.replies[0]?.text).toBe(REFUSED);
    const dial = "/remember 保险箱 左三圈到十二 右两圈到三十五 再左转到七";
    expect((await say(c2cBody({ user, text: dial }), chatKey)).replies[0]?.text).toBe(REFUSED);

    // The paths ran: each message is in the log, and at least the three chat messages that carry a value are masked.
    const logs = await afterDreaming(chatKey, groupKey, inPrivate.length + 2);
    expect(logs.privateMasked).toBeGreaterThanOrEqual(3);
    expect(logs.groupMasked).toBe(2);

    const needles = [
      "八个八",
      "五 二 零 一 三 一 四",
      "俩六俩八",
      "three nines",
      "大写A 小写b",
      "六个6",
      "右两圈到三十五",
    ];
    expect(await storedAnywhere(needles)).toEqual([]);
  });
});
