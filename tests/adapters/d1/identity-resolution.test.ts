import { env } from "cloudflare:workers";
import { D1IdentityDirectory } from "@src/adapters/d1/d1-identity-directory";
import { openDatabase } from "@src/adapters/d1/database";
import type { AccountKey } from "@src/domain/chat/chat-address";
import type { IdentitySettings } from "@src/domain/config/identity-settings";
import { linkAccount } from "@src/domain/identity/identity-admin";
import { DirectoryIdentityResolver } from "@src/domain/identity/identity-resolver";
import { systemClock } from "@src/domain/kernel/clock";
import { silentLogger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";
import { ADMIN, withIdentity } from "../../fakes/identity-settings";
import { linkRow, uid } from "../../support/identity";

const directory = new D1IdentityDirectory(openDatabase(env.DB));

function resolverFor(identity: IdentitySettings) {
  return new DirectoryIdentityResolver({
    settings: async () => identity,
    directory,
    clock: systemClock,
    logger: silentLogger,
  });
}

describe("identity resolution over D1", () => {
  it("links a group member_openid and a private user_openid sharing a union_openid automatically", async ({
    expect,
  }) => {
    const resolver = resolverFor(withIdentity().identity);
    const union = uid("UNION");
    const member = `qq:user:${uid("MEMBER")}` as AccountKey;
    const user = `qq:user:${uid("USER")}` as AccountKey;
    const inGroup = await resolver.resolve({ account: member, chatKey: "qq:group:G1", unionId: union });
    const inPrivate = await resolver.resolve({
      account: user,
      chatKey: `qq:private:${user}`,
      unionId: union,
    });
    expect(inGroup).toEqual({
      enabled: true,
      account: member,
      personId: `qq:union:${union}`,
      declared: false,
    });
    expect(inPrivate.personId).toBe(inGroup.personId);
    expect(await linkRow(member)).toMatchObject({ person_id: `qq:union:${union}`, source: "union" });
    expect(await linkRow(user)).toMatchObject({ person_id: `qq:union:${union}`, source: "union" });
  });

  it("resolves a group and a private openid an admin linked to one person to that person", async ({
    expect,
  }) => {
    const person = uid("p");
    const member = `qq:user:${uid("MEMBER")}` as AccountKey;
    const user = `qq:user:${uid("USER")}` as AccountKey;
    const identity = withIdentity({
      people: [{ id: person, displayName: "阿明", accounts: [user] }],
    }).identity;
    const resolver = resolverFor(identity);
    // Before the link the group account is nobody in particular.
    expect(
      (await resolver.resolve({ account: member, chatKey: "qq:group:G1", unionId: null })).personId,
    ).toBeNull();
    const linked = await linkAccount({ identity, directory, now: Date.now(), by: ADMIN }, member, person);
    expect(linked).toMatchObject({ ok: true, value: { personId: person, created: false, previous: null } });
    const inGroup = await resolver.resolve({ account: member, chatKey: "qq:group:G1", unionId: null });
    const inPrivate = await resolver.resolve({ account: user, chatKey: `qq:private:${user}`, unionId: null });
    expect(inGroup).toEqual({ enabled: true, account: member, personId: person, declared: true });
    expect(inPrivate).toEqual({ ...inGroup, account: user });
    expect(await linkRow(member)).toMatchObject({ person_id: person, source: "admin", linked_by: ADMIN });
  });
});
