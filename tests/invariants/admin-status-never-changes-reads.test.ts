// Own file: identity is enabled through the stored settings, which every test of a file shares.
// Person scopes end to end: a declared person's memory follows them across their group and
// private accounts once an admin links the accounts, and admin status changes no recall.
import { beforeAll, describe, it } from "vitest";
import { uid } from "../support/identity";
import { declared, qqUsers, storeIdentity, uids } from "../support/identity-settings";
import { preview } from "../support/preview";
import { inGroupChat, inPrivateChat } from "../support/turns";

const [GROUP, ALICE_IN_GROUP, ALICE_PRIVATE, ADMIN_IN_GROUP, MEMBER_IN_GROUP, STRANGER] = uids(
  "G",
  "ALICEG",
  "ALICEP",
  "ADMIN",
  "MEMBER",
  "STRANGER",
);

beforeAll(() =>
  storeIdentity({
    people: [declared("alice", "爱丽丝", qqUsers(ALICE_IN_GROUP))],
    admins: qqUsers(ADMIN_IN_GROUP),
  }),
);

describe("person scopes across linked accounts", () => {
  it("recalls in private what a declared person asked to remember in a group, after an admin link", async ({
    expect,
  }) => {
    // Identity is managed in the admin's private chat (a group is refused).
    const linked = await inPrivateChat(ADMIN_IN_GROUP, `/identity link qq:user:${ALICE_PRIVATE} alice`);
    expect(linked).toContain("alice");
    await inGroupChat(GROUP, ALICE_IN_GROUP, "记住我喜欢吃榴莲");

    const mine = await preview({ chat: `qq:private:${ALICE_PRIVATE}`, text: "我喜欢吃什么水果" });
    expect(mine.scopes.readable).toContain("person:alice");
    // No display name in the event: the speaker is named by a short form of the openid.
    expect(mine.recalled.map((r) => [r.scope, r.text])).toContainEqual([
      "person:alice",
      `用户${ALICE_IN_GROUP.slice(0, 4)}喜欢吃榴莲`,
    ]);

    const other = await preview({ chat: `qq:private:${STRANGER}`, text: "我喜欢吃什么水果" });
    expect(other.recalled.map((r) => r.text).join()).not.toContain("榴莲");
    // A private chat with the bot stays private: the stranger's own chat never saw it.
    await inPrivateChat(STRANGER, "你好");
    expect((await preview({ chat: `qq:private:${STRANGER}`, text: "榴莲" })).recalled).toEqual([]);
  });

  it("gives an admin and a member with the same readable scopes the same recall", async ({ expect }) => {
    const group = `qq:group:${GROUP}`;
    await inGroupChat(GROUP, MEMBER_IN_GROUP, "记住群里周五晚上打羽毛球");
    const asAdmin = await preview({ chat: group, sender: ADMIN_IN_GROUP, text: "周五晚上做什么" });
    const asMember = await preview({ chat: group, sender: uid("OTHERMEMBER"), text: "周五晚上做什么" });
    expect(asAdmin.scopes.readable).toEqual(asMember.scopes.readable);
    // What differs is where an explicit write may go: only the admin's may go global.
    expect(asAdmin.scopes.writable).toEqual([`chat:${group}`, "global:__global__"]);
    expect(asMember.scopes.writable).toEqual([`chat:${group}`]);
    expect(asAdmin.recalled.map((r) => [r.nodeId, r.scope])).toEqual(
      asMember.recalled.map((r) => [r.nodeId, r.scope]),
    );
    expect(asAdmin.mandatory).toEqual(asMember.mandatory);
    expect(asAdmin.recalled.length).toBeGreaterThan(0);
  });
});
