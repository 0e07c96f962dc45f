import type { AccountKey } from "@src/domain/chat/chat-address";
import type { IdentitySettings } from "@src/domain/config/identity-settings";
import { DirectoryIdentityResolver } from "@src/domain/identity/identity-resolver";
import { disabledIdentity } from "@src/domain/identity/sender-identity";
import { ManualClock } from "@src/domain/kernel/clock";
import { silentLogger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";
import { ADMIN, withIdentity } from "../../fakes/identity-settings";
import { InMemoryIdentityDirectory } from "../../fakes/in-memory-identity-directory";

const OWNER_PRIVATE = "qq:user:OWNER_C2C" as AccountKey;
const OWNER_GROUP = "qq:user:OWNER_MEMBER" as AccountKey;
const STRANGER = "qq:user:STRANGER" as AccountKey;

const identity = (overrides: Partial<IdentitySettings> = {}): IdentitySettings =>
  withIdentity({
    people: [{ id: "owner", displayName: "浅色", accounts: [OWNER_PRIVATE, "onebot:user:10001"] }],
    ...overrides,
  }).identity;

function resolver(settings: IdentitySettings, directory = new InMemoryIdentityDirectory()) {
  return {
    directory,
    resolver: new DirectoryIdentityResolver({
      settings: async () => settings,
      directory,
      clock: new ManualClock(1000),
      logger: silentLogger,
    }),
  };
}

const ask = (account: AccountKey, unionId: string | null = null, chatKey = "qq:group:G1") => ({
  account,
  chatKey,
  unionId,
});

describe("DirectoryIdentityResolver", () => {
  it("answers like the disabled resolver while identity is off, and writes nothing", async ({ expect }) => {
    const { resolver: r, directory } = resolver({ ...identity(), enabled: false });
    for (const account of [OWNER_PRIVATE, STRANGER]) {
      expect(await r.resolve(ask(account, "U1"))).toEqual(await disabledIdentity.resolve(ask(account, "U1")));
    }
    expect(directory.links.size).toBe(0);
  });

  it("finds a person config declares, as declared", async ({ expect }) => {
    const { resolver: r } = resolver(identity());
    expect(await r.resolve(ask(OWNER_PRIVATE))).toEqual({
      enabled: true,
      account: OWNER_PRIVATE,
      personId: "owner",
      declared: true,
    });
    expect(await r.resolve(ask(STRANGER))).toEqual({
      enabled: true,
      account: STRANGER,
      personId: null,
      declared: false,
    });
  });

  it("links accounts sharing a union id to one person automatically, and records the link", async ({
    expect,
  }) => {
    const { resolver: r, directory } = resolver(identity());
    const member = "qq:user:MEMBER_OF_G1" as AccountKey;
    const user = "qq:user:USER_C2C" as AccountKey;
    const inGroup = await r.resolve(ask(member, "UNION_X"));
    const inPrivate = await r.resolve(ask(user, "UNION_X", "qq:private:USER_C2C"));
    expect(inGroup.personId).toBe("qq:union:UNION_X");
    expect(inPrivate).toEqual({ ...inGroup, account: user });
    expect(inGroup.declared).toBe(false);
    expect(directory.links.get(member)).toMatchObject({ personId: "qq:union:UNION_X", source: "union" });
    expect(directory.persons.get("qq:union:UNION_X")).toMatchObject({ origin: "union" });
    // Without the union id in the event, the recorded link still answers.
    expect((await r.resolve(ask(member))).personId).toBe("qq:union:UNION_X");
  });

  it("joins a union to the declared person who shares it", async ({ expect }) => {
    const { resolver: r, directory } = resolver(identity());
    directory.observations.push({
      account: OWNER_PRIVATE,
      chatKey: "qq:private:OWNER_C2C",
      userId: "OWNER_C2C",
      unionKey: "qq:union:OWNER_UNION",
      displayName: null,
      role: null,
      firstSeen: 1,
      lastSeen: 1,
    });
    expect(await r.resolve(ask(OWNER_GROUP, "OWNER_UNION"))).toEqual({
      enabled: true,
      account: OWNER_GROUP,
      personId: "owner",
      declared: true,
    });
  });

  it("resolves a group member_openid and a private user_openid an admin linked to the same person", async ({
    expect,
  }) => {
    const directory = new InMemoryIdentityDirectory();
    const { resolver: r } = resolver(identity(), directory);
    await directory.link({
      account: OWNER_GROUP,
      personId: "owner",
      source: "admin",
      unionKey: null,
      linkedBy: ADMIN,
      linkedAt: 1,
    });
    const group = await r.resolve(ask(OWNER_GROUP));
    const priv = await r.resolve(ask(OWNER_PRIVATE, null, "qq:private:OWNER_C2C"));
    expect(group).toEqual({ enabled: true, account: OWNER_GROUP, personId: "owner", declared: true });
    expect(priv).toEqual({ ...group, account: OWNER_PRIVATE });
  });

  it("prefers an admin link over the union, and keeps a detached account alone", async ({ expect }) => {
    const directory = new InMemoryIdentityDirectory();
    const { resolver: r } = resolver(identity(), directory);
    const a = "qq:user:A" as AccountKey;
    const b = "qq:user:B" as AccountKey;
    await directory.link({
      account: a,
      personId: "bob",
      source: "admin",
      unionKey: "qq:union:U",
      linkedBy: ADMIN,
      linkedAt: 1,
    });
    expect((await r.resolve(ask(a, "U"))).personId).toBe("bob");
    // B shares the union with A, whom an admin linked to bob: B is bob too.
    expect(await r.resolve(ask(b, "U"))).toEqual({
      enabled: true,
      account: b,
      personId: "bob",
      declared: false,
    });
    await directory.link({
      account: b,
      personId: null,
      source: "admin",
      unionKey: "qq:union:U",
      linkedBy: ADMIN,
      linkedAt: 2,
    });
    expect((await r.resolve(ask(b, "U"))).personId).toBeNull();
  });

  it("lets config win over a stored link", async ({ expect }) => {
    const directory = new InMemoryIdentityDirectory();
    await directory.link({
      account: OWNER_PRIVATE,
      personId: "someone-else",
      source: "admin",
      unionKey: null,
      linkedBy: ADMIN,
      linkedAt: 1,
    });
    const { resolver: r } = resolver(identity(), directory);
    expect((await r.resolve(ask(OWNER_PRIVATE))).personId).toBe("owner");
  });

  it("gives the same identity whether or not the account is an admin", async ({ expect }) => {
    const plain = resolver(identity({ admins: [] })).resolver;
    const asAdmin = resolver(identity({ admins: [OWNER_PRIVATE, STRANGER] })).resolver;
    for (const account of [OWNER_PRIVATE, STRANGER]) {
      expect(await asAdmin.resolve(ask(account, "U7"))).toEqual(await plain.resolve(ask(account, "U7")));
    }
  });
});
