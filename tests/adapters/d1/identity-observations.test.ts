import { env } from "cloudflare:workers";
import { D1IdentityDirectory } from "@src/adapters/d1/d1-identity-directory";
import { D1MessageLog } from "@src/adapters/d1/d1-message-log";
import { openDatabase } from "@src/adapters/d1/database";
import type { AccountKey } from "@src/domain/chat/chat-address";
import type { AccountObservation } from "@src/domain/identity/identity-directory";
import { describe, it } from "vitest";
import { groupBodyWithIdentity, linkRow, observationRows, uid } from "../../support/identity";
import { eventIdOf, postQq, turnDone } from "../../support/qq-events";
import { eventually } from "../../support/wait";

const db = openDatabase(env.DB);
const emptyBatch = { messages: [], recalls: [], chats: [], usage: [], audit: [] };

function observation(overrides: Partial<AccountObservation> & { account: AccountKey }): AccountObservation {
  return {
    chatKey: "qq:group:G",
    userId: overrides.account.split(":")[2] ?? "",
    unionKey: null,
    displayName: null,
    role: null,
    firstSeen: 1000,
    lastSeen: 1000,
    ...overrides,
  };
}

describe("account observations", () => {
  it("are recorded from inbound messages and flushed with the message log, in any group", async ({
    expect,
  }) => {
    // The group is not followed: its messages are not stored, but who spoke there is.
    const group = uid("G");
    const member = uid("M");
    const first = groupBodyWithIdentity({
      group,
      member,
      text: "/ping",
      union: "UNION1",
      name: "小明",
      role: "member",
    });
    expect((await postQq(first)).status).toBe(200);
    await turnDone(`qq:group:${group}`, eventIdOf(first));
    const rows = await eventually(async () => {
      const r = await observationRows(`qq:user:${member}`);
      return r.length === 1 ? r : undefined;
    });
    expect(rows[0]).toMatchObject({
      chat_key: `qq:group:${group}`,
      user_id: member,
      union_key: "qq:union:UNION1",
      display_name: "小明",
      role: "member",
    });
    const firstSeen = rows[0]?.first_seen ?? 0;

    const later = new Date(Date.now() + 60_000).toISOString();
    const second = groupBodyWithIdentity({
      group,
      member,
      text: "/ping",
      name: "小明同学",
      role: "admin",
      ts: later,
    });
    await postQq(second);
    await turnDone(`qq:group:${group}`, eventIdOf(second));
    const updated = await eventually(async () => {
      const r = await observationRows(`qq:user:${member}`);
      return r[0]?.display_name === "小明同学" ? r : undefined;
    });
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({ role: "admin", union_key: "qq:union:UNION1", first_seen: firstSeen });
    expect(updated[0]?.last_seen).toBeGreaterThan(firstSeen);
  });

  it("are written idempotently: a retried flush changes nothing, an older one never wins", async ({
    expect,
  }) => {
    const log = new D1MessageLog(db);
    const account = `qq:user:${uid("A")}` as AccountKey;
    const newer = observation({
      account,
      displayName: "新名字",
      role: "owner",
      firstSeen: 2000,
      lastSeen: 2000,
    });
    const older = observation({
      account,
      displayName: "旧名字",
      role: "member",
      firstSeen: 1000,
      lastSeen: 1000,
      unionKey: "qq:union:U9",
    });
    await log.flush({ ...emptyBatch, observations: [newer] });
    await log.flush({ ...emptyBatch, observations: [newer] });
    await log.flush({ ...emptyBatch, observations: [older] });
    expect(await observationRows(account)).toEqual([
      {
        account_key: account,
        chat_key: "qq:group:G",
        user_id: account.split(":")[2],
        union_key: "qq:union:U9",
        display_name: "新名字",
        role: "owner",
        first_seen: 1000,
        last_seen: 2000,
      },
    ]);
  });
});

describe("D1IdentityDirectory", () => {
  it("links accounts, creates people once and finds accounts by union id", async ({ expect }) => {
    const directory = new D1IdentityDirectory(db);
    const union = `qq:union:${uid("U")}`;
    const group = `qq:user:${uid("MEMBER")}` as AccountKey;
    const priv = `qq:user:${uid("USER")}` as AccountKey;
    const person = uid("p");
    await new D1MessageLog(db).flush({
      ...emptyBatch,
      observations: [observation({ account: group, unionKey: union })],
    });
    expect(await directory.accountsOfUnion(union)).toEqual([{ account: group, link: null }]);

    const link = {
      account: priv,
      personId: person,
      source: "admin" as const,
      unionKey: union,
      linkedBy: "qq:user:ADMIN",
      linkedAt: 5,
    };
    await directory.link(link, { displayName: null, origin: "admin", createdAt: 5 });
    await directory.link(link, { displayName: "ignored", origin: "admin", createdAt: 6 });
    expect(await directory.person(person)).toEqual({
      personId: person,
      displayName: null,
      origin: "admin",
      createdAt: 5,
    });
    expect(await directory.linkOf(priv)).toEqual(link);
    expect(await directory.accountsOf(person)).toEqual([link]);
    const siblings = await directory.accountsOfUnion(union);
    expect(siblings.sort((a, b) => a.account.localeCompare(b.account))).toEqual(
      [
        { account: group, link: null },
        { account: priv, link },
      ].sort((a, b) => a.account.localeCompare(b.account)),
    );

    // Detaching keeps the union key it knew.
    await directory.link({ ...link, personId: null, unionKey: null, linkedAt: 7 });
    expect(await linkRow(priv)).toMatchObject({ person_id: null, source: "admin", union_key: union });
    expect(await directory.accountsOf(person)).toEqual([]);
    expect((await directory.observationsOf(group, 5)).map((o) => o.unionKey)).toEqual([union]);
  });
});
