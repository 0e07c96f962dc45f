// Own file: identity, two declared people (one with two private accounts) and an undeclared
// member are set through the stored settings, which every test of a file shares.
// `/memory` lists what the bot keeps about the asker that this chat may show, and `/forget`
// deletes only such an item (docs/invariants.md#people-manage-their-own-memory): in a group
// neither names, counts nor confirms a person's private items — taught in their private chat,
// on either linked account — nor touches another person's; odd ids change nothing; every reply
// is checked against what D1 holds afterwards.
import { env } from "cloudflare:workers";
import { isRestatement, type Statement } from "@src/domain/memory/restatement";
import { beforeAll, describe, it } from "vitest";
import { auditRowsOnceThere } from "../support/identity";
import { declared, qqUsers, storeIdentity, uids } from "../support/identity-settings";
import { uid } from "../support/memory";
import { listedIdOf } from "../support/memory-listing";
import { memoryRowHolding } from "../support/memory-row";
import { registerChat } from "../support/sessions";
import { inGroupChat, inPrivateChat } from "../support/turns";

const run = uid().slice(0, 6);
const ALICE = `alice${run}`;
const BOB = `bob${run}`;
/** ALICE_P2 is the person's second private account, linked to the same person. */
const [ALICE_G, ALICE_P, ALICE_P2, BOB_G, BOB_P, MEMBER, GROUP_ID] = uids(
  "ALICEG",
  "ALICEP",
  "ALICEPP",
  "BOBG",
  "BOBP",
  "M",
  "G",
);
const GROUP = `qq:group:${GROUP_ID}`;

beforeAll(async () => {
  await storeIdentity({
    people: [
      declared(ALICE, "爱丽丝", qqUsers(ALICE_G, ALICE_P, ALICE_P2)),
      declared(BOB, "鲍勃", qqUsers(BOB_G, BOB_P)),
    ],
  });
  await registerChat(GROUP, Date.now(), "登山群");
});

const inGroup = (member: string, text: string) => inGroupChat(GROUP_ID, member, text);

/** Every memory row's id and status, to prove a reply changed nothing. */
async function allStatuses(): Promise<string> {
  const { results } = await env.DB.prepare(
    "SELECT node_id, status FROM nodes WHERE node_type = 'memory' ORDER BY node_id",
  ).all<{ node_id: string; status: string }>();
  return results.map((r) => `${r.node_id}=${r.status}`).join(",");
}

/** The short id a /memory reply lists for the line holding `fragment`. */
function shortIdOf(listing: string, fragment: string): string {
  const id = listedIdOf(listing, fragment);
  if (!id) throw new Error(`no listed id for ${fragment} in:\n${listing}`);
  return id;
}

/** A well-formed id no item has: the same length, so replies can be compared word for word. */
const unknownLike = (id: string) => id.slice(0, -2) + (id.endsWith("zz") ? "yy" : "zz");

/** Alice's items: private ones taught on both private accounts, a public one, one said in the group. */
async function teachAlice(tag: string) {
  await inPrivateChat(ALICE_P, `/remember 我在准备考研${tag}`);
  await inPrivateChat(ALICE_P2, `/remember 不要外传，我下个月搬家${tag}`);
  await inPrivateChat(ALICE_P, `/remember 我喜欢爬山${tag}，可以告诉大家`);
  await inGroup(ALICE_G, `/remember 我喜欢吃辣${tag}`);
  return {
    exam: `考研${tag}`,
    moving: `搬家${tag}`,
    hiking: `爬山${tag}`,
    spicy: `吃辣${tag}`,
  };
}

describe("/memory lists only what this chat may show", () => {
  it("in a group, never the person's private items, from either private account, nor their count", async ({
    expect,
  }) => {
    const tag = uid();
    const t = await teachAlice(tag);
    expect((await memoryRowHolding(t.exam)).sensitivity).toBe("private");
    expect((await memoryRowHolding(t.moving)).sensitivity).not.toBe("public");
    expect((await memoryRowHolding(t.hiking)).sensitivity).toBe("public");

    const inTheGroup = await inGroup(ALICE_G, "/memory");
    expect(inTheGroup).toContain(t.hiking);
    expect(inTheGroup).toContain(t.spicy);
    for (const hidden of [t.exam, t.moving, "考研", "搬家"]) expect(inTheGroup).not.toContain(hidden);
    // No count, no hint: another private item changes nothing the group hears.
    await inPrivateChat(ALICE_P2, `/remember 我在看心理医生${tag}`);
    await inPrivateChat(ALICE_P, `/remember 这是私事：我欠了钱${tag}`);
    const again = await inGroup(ALICE_G, "/memory");
    expect(again).toBe(inTheGroup);
    // The full-width command reads the same.
    expect(await inGroup(ALICE_G, "／ｍｅｍｏｒｙ")).toBe(inTheGroup);

    // Control: her private chats, on both accounts, list all of them.
    for (const account of [ALICE_P, ALICE_P2]) {
      const own = await inPrivateChat(account, "/memory");
      for (const fragment of [t.exam, t.moving, t.hiking, t.spicy, `心理医生${tag}`, `欠了钱${tag}`])
        expect({ account, fragment, listed: own.includes(fragment) }).toEqual({
          account,
          fragment,
          listed: true,
        });
    }
  });

  it("never lists another person's items, in the group or in a private chat", async ({ expect }) => {
    const tag = uid();
    await inGroup(BOB_G, `/remember 我喜欢猫${tag}`);
    await inPrivateChat(BOB_P, `/remember 我喜欢狗${tag}`);
    await inGroup(MEMBER, `/remember 我喜欢下棋${tag}`);
    const t = await teachAlice(tag);
    for (const listing of [await inGroup(ALICE_G, "/memory"), await inPrivateChat(ALICE_P, "/memory")]) {
      expect(listing).toContain(t.hiking);
      for (const other of [`猫${tag}`, `狗${tag}`, `下棋${tag}`]) expect(listing).not.toContain(other);
    }
    // An undeclared member's own items of the group are theirs to see there, and only theirs.
    const member = await inGroup(MEMBER, "/memory");
    expect(member).toContain(`下棋${tag}`);
    for (const other of [`猫${tag}`, t.hiking, t.spicy]) expect(member).not.toContain(other);
  });

  it("never lists a credential: it was refused, never stored", async ({ expect }) => {
    const tag = uid();
    const refused = await inPrivateChat(ALICE_P, `/remember 我的邮箱密码是 Qw3rty!${tag}`);
    expect(refused).toContain("不会记下来");
    const own = await inPrivateChat(ALICE_P, "/memory");
    expect(own).not.toContain(`Qw3rty!${tag}`);
    expect(own).not.toContain(tag);
  });
});

// A teaching that restates an earlier one is merged into it (decision 0410), and its row is gone.
describe("the tags of this file", () => {
  it("never make one teaching restate another", async ({ expect }) => {
    const first = uid();
    const { exam } = await teachAlice(first);
    const { raw_text: stored } = (await env.DB.prepare(
      "SELECT raw_text FROM nodes WHERE node_type = 'memory' AND raw_text LIKE ?",
    )
      .bind(`%${exam}%`)
      .first<{ raw_text: string }>()) ?? { raw_text: "" };
    expect(stored).toContain(exam);
    const taught = (tag: string): Statement => ({
      scope: { type: "person", id: ALICE },
      kind: "fact",
      text: stored.replace(first, tag),
      subjectKey: null,
    });
    const tags = [first, ...Array.from({ length: 99 }, uid)];
    const merged = tags.flatMap((a, i) =>
      tags.slice(i + 1).flatMap((b) => (isRestatement(taught(a), taught(b)) ? [`${a}/${b}`] : [])),
    );
    expect(merged).toEqual([]);
  });
});

/** Items to leave untouched, taught once for all the odd ids below. */
let taughtOnce: Promise<unknown> | undefined;

describe("/forget deletes only an item the asker could see here", () => {
  it("in a group, a private item's id answers exactly like an id nobody has, and stays", async ({
    expect,
  }) => {
    const tag = uid();
    const t = await teachAlice(tag);
    const own = await inPrivateChat(ALICE_P, "/memory");
    const exam = await memoryRowHolding(t.exam);
    const before = await allStatuses();
    for (const id of [shortIdOf(own, t.exam), exam.node_id, shortIdOf(own, t.moving)]) {
      const hidden = await inGroup(ALICE_G, `/forget ${id}`);
      const nobody = await inGroup(ALICE_G, `/forget ${unknownLike(id)}`);
      expect(hidden.replace(id, "<id>")).toBe(nobody.replace(unknownLike(id), "<id>"));
      expect(hidden).not.toContain("考研");
      expect(hidden).not.toContain("搬家");
    }
    expect(await allStatuses()).toBe(before);
    // The audit rows of both say the same: not found.
    const audit = await auditRowsOnceThere(
      GROUP,
      (a) => a.action === "memory.forget" && a.actor === `qq:user:${ALICE_G}`,
      (rows) => rows.length >= 6,
    );
    expect(new Set(audit.map((a) => `${a.detail.outcome}:${a.detail.cause}`))).toEqual(
      new Set(["refused:not-found"]),
    );
  });

  it("another person's id is not found, wherever it is typed, and their item stays", async ({ expect }) => {
    const tag = uid();
    await inGroup(BOB_G, `/remember 我喜欢猫${tag}`);
    await inGroup(MEMBER, `/remember 我喜欢下棋${tag}`);
    const bobs = shortIdOf(await inGroup(BOB_G, "/memory"), `猫${tag}`);
    const members = shortIdOf(await inGroup(MEMBER, "/memory"), `下棋${tag}`);
    const before = await allStatuses();
    for (const [said, id] of [
      [await inGroup(ALICE_G, `/forget ${bobs}`), bobs],
      [await inPrivateChat(ALICE_P, `/forget ${bobs}`), bobs],
      [await inGroup(ALICE_G, `/forget ${members}`), members],
      [await inGroup(BOB_G, `/forget ${members}`), members],
    ] as const) {
      expect(said).toContain(`找不到`);
      expect(said).toContain(id);
    }
    expect(await allStatuses()).toBe(before);
    expect((await memoryRowHolding(`猫${tag}`)).status).toBe("active");
    expect((await memoryRowHolding(`下棋${tag}`)).status).toBe("active");
  });

  it.for([
    ["full-width digits", "３"],
    ["a space inside", "ab12 cd34"],
    ["a list number", "#3"],
    ["a bare number", "3"],
    ["very long", "a".repeat(400)],
    ["SQL", "1' OR '1'='1"],
    ["SQL with a comment", "m_x;DELETE FROM nodes;--"],
    ["a wildcard", "%"],
    ["nothing", ""],
  ] as const)("an id with %s gets a clear error and changes nothing", async ([, typed], { expect }) => {
    taughtOnce ??= teachAlice(uid());
    await taughtOnce;
    const before = await allStatuses();
    for (const said of [
      await inGroup(ALICE_G, `/forget ${typed}`),
      await inPrivateChat(ALICE_P, `/forget ${typed}`),
    ]) {
      expect(said).toContain("用法：/forget <id>");
      expect(said).not.toContain("已忘记");
      // Never echoed: whatever was typed stays out of the reply.
      if (typed.length > 3) expect(said).not.toContain(typed);
    }
    expect(await allStatuses()).toBe(before);
  });

  it("forgets the asker's own item, says so only when D1 shows it gone, and it leaves the listing", async ({
    expect,
  }) => {
    const tag = uid();
    const t = await teachAlice(tag);
    const spicyId = (await memoryRowHolding(t.spicy)).node_id;
    // In the group: the person's public item, by the id the group listing showed.
    const spicy = shortIdOf(await inGroup(ALICE_G, "/memory"), t.spicy);
    const said = await inGroup(ALICE_G, `/forget ${spicy}`);
    expect(said).toContain("已忘记");
    expect(said).toContain(t.spicy);
    await expect(memoryRowHolding(t.spicy)).rejects.toThrow("no memory row");
    expect(await inGroup(ALICE_G, "/memory")).not.toContain(t.spicy);
    // A second time: it is gone, and the reply says so.
    const twice = await inGroup(ALICE_G, `/forget ${spicy}`);
    expect(twice).toContain("找不到");

    // In a private chat: a private item taught on the other linked account, by its full id too.
    const moving = await memoryRowHolding(t.moving);
    const privately = await inPrivateChat(ALICE_P, `/forget ${moving.node_id}`);
    expect(privately).toContain("已忘记");
    await expect(memoryRowHolding(t.moving)).rejects.toThrow("no memory row");
    expect(await inPrivateChat(ALICE_P2, "/memory")).not.toContain(t.moving);
    expect((await memoryRowHolding(t.exam)).status).toBe("active");

    const audit = await auditRowsOnceThere(
      GROUP,
      (a) => a.action === "memory.forget" && a.target === spicyId,
    );
    expect(audit.map((a) => a.detail.outcome)).toEqual(["ok"]);
  });

  it("is listed in /help", async ({ expect }) => {
    const help = await inGroup(ALICE_G, "/help");
    expect(help).toContain("/memory");
    expect(help).toContain("/forget <id>");
  });
});
