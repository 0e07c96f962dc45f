import { DEFAULT_SETTINGS, resolveSettings } from "@src/domain/config/settings";
import { describe, it } from "vitest";

const valid = {
  identity: {
    enabled: true,
    people: [
      { id: "owner", displayName: "浅色", accounts: ["onebot:user:10001", "qq:user:OWNER_C2C"] },
      { id: "alice", displayName: "Alice", accounts: ["qq:user:ALICE"] },
    ],
    admins: ["onebot:user:10001", "person:alice"],
    chatDomains: { community: ["qq:group:MAIN", "qq:group:TOPIC"], family: ["onebot:group:748394300"] },
  },
};

describe("identity settings", () => {
  it("are off by default, with no people, admins or domains", ({ expect }) => {
    expect(DEFAULT_SETTINGS.identity).toEqual({ enabled: false, people: [], admins: [], chatDomains: {} });
    const resolved = resolveSettings({});
    expect(resolved.ok && resolved.value.identity.enabled).toBe(false);
  });

  it("accept people, admins (accounts or person:<id>) and chat domains", ({ expect }) => {
    const resolved = resolveSettings(valid);
    expect(resolved.ok).toBe(true);
    expect(resolved.ok && resolved.value.identity).toEqual(valid.identity);
  });

  it("let a later layer turn identity on without repeating the rest", ({ expect }) => {
    const resolved = resolveSettings(valid, { identity: { enabled: false } });
    expect(resolved.ok && resolved.value.identity.enabled).toBe(false);
    expect(resolved.ok && resolved.value.identity.people).toHaveLength(2);
  });

  const people = valid.identity.people;
  it.for([
    [
      "an account key that does not parse",
      { people: [{ ...people[0], accounts: ["qq:10001"] }] },
      "identity.people.0.accounts.0",
      "not an account key",
    ],
    [
      "a chat key that does not parse",
      { chatDomains: { community: ["qq:group"] } },
      "identity.chatDomains.community.0",
      "expected channel:type:id",
    ],
    [
      "a session lane as a chat",
      { chatDomains: { community: ["qq:private:U1:cron:abc"] } },
      "identity.chatDomains.community.0",
      "session lane",
    ],
    ["a bad admin entry", { admins: ["10001"] }, "identity.admins.0", "not an account key"],
    [
      "an unknown person referenced by admins",
      { admins: ["person:bob"] },
      "identity.admins.0",
      "unknown person 'bob'",
    ],
    [
      "one account in two people",
      { people: [people[0], { ...people[1], accounts: ["qq:user:OWNER_C2C"] }] },
      "identity.people.1.accounts.0",
      "already declared for person 'owner'",
    ],
    [
      "a duplicate person id",
      { people: [people[0], { ...people[1], id: "owner" }] },
      "identity.people.1.id",
      "duplicate person id 'owner'",
    ],
    [
      "a bad person id",
      { people: [{ ...people[0], id: "has space" }] },
      "identity.people.0.id",
      "not a person id",
    ],
    [
      "one chat in two domains",
      { chatDomains: { a: ["qq:group:G1"], b: ["qq:group:G1"] } },
      "identity.chatDomains.b.0",
      "already in domain 'a'",
    ],
    [
      "a bad domain name",
      { chatDomains: { "a b": ["qq:group:G1"] } },
      "identity.chatDomains.a b",
      "not a domain name",
    ],
    [
      "an empty display name",
      { people: [{ ...people[0], displayName: "" }] },
      "identity.people.0.displayName",
      "",
    ],
    ["enabled as a string", { enabled: "yes" }, "identity.enabled", ""],
    ["an unknown key", { owners: [] }, "identity", "unknown setting 'owners'"],
  ] as const)("refuse %s, naming the field", ([, identity, field, reason], { expect }) => {
    const resolved = resolveSettings({ identity: { ...valid.identity, ...identity } });
    expect(resolved.ok).toBe(false);
    if (resolved.ok) return;
    expect(resolved.error.field).toBe(field);
    expect(resolved.error.reason).toContain(reason);
  });

  it("refuse a whole layer when one identity field is bad: nothing of it is applied", ({ expect }) => {
    const bad = { follow: { groups: ["qq:group:G1"] }, identity: { admins: ["person:nobody"] } };
    const resolved = resolveSettings(bad);
    expect(resolved).toMatchObject({ ok: false, error: { field: "identity.admins.0" } });
  });
});
