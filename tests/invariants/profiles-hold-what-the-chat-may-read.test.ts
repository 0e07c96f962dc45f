// Own file: identity with one declared person (two private accounts and a group account) and an
// undeclared member is set through the stored settings, which every test of a file shares.
// A person's profile (docs/memory.md#person-profiles) is read in every turn's mandatory block, so
// it is the easiest place for a private fact to slip into a group: the profile a group turn reads
// holds the person's public items alone, whatever the wording the private ones were taught in;
// their own private chats read their private items too; secret_like items are in no profile; and
// an item made private, moved away or forgotten — by the bot or by a write straight to D1 — is
// gone from the next turn's profile.
import { env } from "cloudflare:workers";
import type { TurnPreview } from "@src/domain/agent/turn-preview";
import { beforeAll, describe, it } from "vitest";
import { adminApi } from "../support/admin-api";
import { declared, qqUsers, storeIdentity, uids } from "../support/identity-settings";
import { newMemory, seedMemory, uid } from "../support/memory";
import { listedIdOf } from "../support/memory-listing";
import { memoryRowHolding } from "../support/memory-row";
import { everything, preview } from "../support/preview";
import { registerChat } from "../support/sessions";
import { storedAnywhere } from "../support/stored-anywhere";
import { inGroupChat, inPrivateChat } from "../support/turns";

const run = uid().slice(0, 6);
const ALICE = `alice${run}`;
const [ALICE_G, ALICE_P, ALICE_P2, MEMBER, GROUP_ID] = uids("ALICEG", "ALICEP", "ALICEPP", "M", "G");
const GROUP = `qq:group:${GROUP_ID}`;

beforeAll(async () => {
  await storeIdentity({ people: [declared(ALICE, "爱丽丝", qqUsers(ALICE_G, ALICE_P, ALICE_P2))] });
  await registerChat(GROUP, Date.now(), "登山群");
});

const inGroup = (member: string, text: string) => inGroupChat(GROUP_ID, member, text);

const groupTurn = (sender: string, text: string) => preview({ chat: GROUP, sender, text });
const privateTurn = (sender: string, text: string) => preview({ chat: `qq:private:${sender}`, sender, text });

/** Private material in wordings the privacy rules were not written around. */
const privateWordings = (tag: string) => [
  `/remember 我在偷偷准备考研${tag}`,
  `记住：我下个月去北京面试${tag}，先别声张`,
  `remember that I am moving out of my parents' place${tag}`,
  `/remember 我其實已經離職了${tag}`,
  `/remember 我和男朋友分手了${tag}~~`,
];
const privateMarks = (tag: string) => [
  `考研${tag}`,
  `面试${tag}`,
  `parents' place${tag}`,
  `離職了${tag}`,
  `分手了${tag}`,
];

/** What memory gives a turn: the profile and the recalled items (the chat's own recent turns aside). */
const fromMemory = (p: TurnPreview) => JSON.stringify({ profile: p.mandatory.profile, recalled: p.recalled });

describe("a group turn's profile of the speaker holds their public items alone", () => {
  it("private items taught in any wording reach the person's own profile, never the group's", async ({
    expect,
  }) => {
    const tag = uid();
    await inGroup(ALICE_G, `/remember 我喜欢吃火锅${tag}`);
    for (const said of privateWordings(tag)) await inPrivateChat(ALICE_P, said);
    // The items exist, private or secret, in the person's scope: the profile is what is under test.
    for (const mark of privateMarks(tag)) {
      const row = await memoryRowHolding(mark);
      expect({ mark, scope: row.scope, shared: row.sensitivity === "public" }).toEqual({
        mark,
        scope: `person:${ALICE}`,
        shared: false,
      });
    }

    const group = await groupTurn(ALICE_G, `大家周末去哪 ${tag}`);
    expect(group.mandatory.profile).toContain(`火锅${tag}`);
    for (const mark of privateMarks(tag)) {
      expect({ mark, inGroup: everything(group).includes(mark) }).toEqual({ mark, inGroup: false });
    }
    // The reply in the group, too.
    const answer = await inGroup(ALICE_G, `我最近怎么样 ${tag}`);
    for (const mark of privateMarks(tag)) expect(answer).not.toContain(mark);

    // Both of the person's private chats read the whole profile (their private items; the
    // wordings judged secret_like are in no profile, next test).
    for (const account of [ALICE_P, ALICE_P2]) {
      const own = await privateTurn(account, `你好 ${tag}`);
      expect(own.mandatory.profile).toContain(`火锅${tag}`);
      for (const mark of privateMarks(tag)) {
        const level = (await memoryRowHolding(mark)).sensitivity;
        expect({ account, mark, has: own.mandatory.profile?.includes(mark) }).toEqual({
          account,
          mark,
          has: level === "private",
        });
      }
    }
  });

  it("an undeclared member's group turn reads no one's profile", async ({ expect }) => {
    const tag = uid();
    await inGroup(ALICE_G, `/remember 我喜欢登山${tag}`);
    const member = await groupTurn(MEMBER, `谁喜欢登山 ${tag}`);
    expect(member.mandatory.profile).toBeNull();
  });

  it("a secret_like item is in no profile, not even the person's own", async ({ expect }) => {
    const tag = uid();
    await inPrivateChat(ALICE_P, `/remember 我的病历显示我有抑郁症${tag}`);
    expect((await memoryRowHolding(`抑郁症${tag}`)).sensitivity).toBe("secret_like");
    const own = await privateTurn(ALICE_P, `你好 ${tag}`);
    expect(own.mandatory.profile ?? "").not.toContain(`抑郁症${tag}`);
    const group = await groupTurn(ALICE_G, `你好 ${tag}`);
    expect(everything(group)).not.toContain(`抑郁症${tag}`);
  });
});

describe("the profile follows every change to the items, whoever makes it", () => {
  it("an item made private straight in D1 leaves the group's profile at the next turn", async ({
    expect,
  }) => {
    const tag = uid();
    await inGroup(ALICE_G, `/remember 我喜欢吃饺子${tag}`);
    expect((await groupTurn(ALICE_G, `吃什么 ${tag}`)).mandatory.profile).toContain(`饺子${tag}`);
    // An owner's migration or a dashboard edit writes D1 directly, not through the profile code.
    const row = await memoryRowHolding(`饺子${tag}`);
    await env.DB.prepare("UPDATE nodes SET sensitivity = 'private' WHERE node_id = ?")
      .bind(row.node_id)
      .run();
    const after = await groupTurn(ALICE_G, `吃什么 ${tag}`);
    expect(fromMemory(after)).not.toContain(`饺子${tag}`);
    expect((await privateTurn(ALICE_P, `吃什么 ${tag}`)).mandatory.profile).toContain(`饺子${tag}`);
  });

  it("an item moved to another scope or forgotten is gone from the profile", async ({ expect }) => {
    const tag = uid();
    await inGroup(ALICE_G, `/remember 我喜欢弹吉他${tag}`);
    await inGroup(ALICE_G, `/remember 我喜欢跑马拉松${tag}`);
    const before = (await groupTurn(ALICE_G, `爱好 ${tag}`)).mandatory.profile ?? "";
    expect(before).toContain(`吉他${tag}`);
    expect(before).toContain(`马拉松${tag}`);
    const guitar = await memoryRowHolding(`吉他${tag}`);
    await env.DB.prepare("UPDATE nodes SET scope_type = 'chat', scope_id = ? WHERE node_id = ?")
      .bind(GROUP, guitar.node_id)
      .run();
    const marathon = await memoryRowHolding(`马拉松${tag}`);
    await env.DB.prepare("DELETE FROM nodes WHERE node_id = ?").bind(marathon.node_id).run();
    for (const p of [await groupTurn(ALICE_G, `爱好 ${tag}`), await privateTurn(ALICE_P, `爱好 ${tag}`)]) {
      expect(p.mandatory.profile ?? "").not.toContain(`吉他${tag}`);
      expect(fromMemory(p)).not.toContain(`马拉松${tag}`);
    }
  });

  it("/forget in the person's own chat takes the item out of the group's profile", async ({ expect }) => {
    const tag = uid();
    await inGroup(ALICE_G, `/remember 我喜欢喝奶茶${tag}`);
    expect((await groupTurn(ALICE_G, `喝什么 ${tag}`)).mandatory.profile).toContain(`奶茶${tag}`);
    const id = listedIdOf(await inPrivateChat(ALICE_P, "/memory"), `奶茶${tag}`);
    expect(id).toBeTruthy();
    await inPrivateChat(ALICE_P, `/forget ${id}`);
    expect(fromMemory(await groupTurn(ALICE_G, `喝什么 ${tag}`))).not.toContain(`奶茶${tag}`);
  });

  it("an item forgotten or erased for a credential leaves its words in no stored profile", async ({
    expect,
  }) => {
    const tag = uid();
    const [walks, held] = (await seedMemory([
      newMemory(`person:${ALICE}`, `我每天晚上去江边散步${tag}`, { kind: "preference" }),
      newMemory(`person:${ALICE}`, `我家 wifi 密码是 Nq${tag}x`, { kind: "fact" }),
      newMemory(`person:${ALICE}`, `我喜欢打羽毛球${tag}`, { kind: "preference" }),
    ])) as [string, string, string];
    const gone = [`江边散步${tag}`, `Nq${tag}x`];
    // The person's own chat builds and keeps the profile from all three.
    expect((await privateTurn(ALICE_P, `你好 ${tag}`)).mandatory.profile).toContain(`江边散步${tag}`);
    expect(await storedAnywhere(gone)).not.toEqual([]);

    const forgot = await adminApi(`/memory/${walks}/forget`, { method: "POST", body: { confirm: walks } });
    expect(forgot.status).toBe(200);
    const erased = await adminApi("/memory/credentials/erase", { method: "POST", body: { ids: [held] } });
    expect(await erased.json()).toEqual({ erased: [held] });
    expect(await storedAnywhere(gone)).toEqual([]);
    expect((await privateTurn(ALICE_P, `你好 ${tag}`)).mandatory.profile).toContain(`羽毛球${tag}`);
  });
});
