import {
  composeProfile,
  PROFILE_MAX_CHARS,
  PROFILE_MAX_ITEMS,
  profileAudience,
  profileKey,
  readProfile,
} from "@src/domain/memory/person-profile";
import type { ReadableScope } from "@src/domain/retrieval/read-gate";
import { describe, it } from "vitest";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";
import { KeptProfiles } from "../../fakes/kept-profiles";
import { profileReaders, publicOnly } from "../../fakes/profile-readers";

const ALICE = profileReaders("alice", "qq:user:A");
const PERSON = ALICE.person;
const ACCOUNT = ALICE.account;
const GROUP = { type: "chat", id: "qq:group:G" } as const;
const GLOBAL = { type: "global", id: "__global__" } as const;

/** Readers as turnScopes builds them: a group turn reads the person's public items alone. */
const groupReader: ReadableScope[] = [...ALICE.group, GROUP, GLOBAL];
const privateReader: ReadableScope[] = [...ALICE.own, { type: "chat", id: "qq:private:A" }, GLOBAL];

function items() {
  return new InMemoryMemory([
    memoryItem("person:alice", "喜欢火锅", { importance: 0.6 }),
    memoryItem("account:qq:user:A", "住在杭州", { kind: "fact", importance: 0.9 }),
    memoryItem("person:alice", "在准备考研", { sensitivity: "private", kind: "fact" }),
    memoryItem("person:alice", "病历在协和", { sensitivity: "secret_like", kind: "fact", importance: 1 }),
    memoryItem("person:alice", "群里叫她阿丽", { portable: false }),
    memoryItem("person:alice", "明天交报告", { kind: "task", importance: 1 }),
    memoryItem("chat:qq:group:G", "群规：不刷屏", { kind: "rule" }),
  ]);
}

describe("person profiles", () => {
  it("pick the audience from the gate: own only where the private level is read", ({ expect }) => {
    expect(profileAudience(groupReader)).toBe("public");
    expect(profileAudience(privateReader)).toBe("own");
    expect(profileAudience([GROUP, GLOBAL])).toBeNull();
    // A reader given the private level on one own scope but not the other gets the public profile.
    expect(profileAudience([PERSON, publicOnly(ACCOUNT), GROUP])).toBe("public");
    expect(profileAudience([{ ...PERSON, sensitivities: [] }, GROUP])).toBeNull();
  });

  it("name the scopes they are built from, whatever order the reader lists them in", ({ expect }) => {
    expect(profileKey([PERSON, ACCOUNT], "own")).toEqual(profileKey([ACCOUNT, PERSON], "own"));
    expect(profileKey([PERSON, ACCOUNT], "own").subject).toBe("account:qq:user:A|person:alice");
  });

  it("hold public facts and preferences in a group, private ones too in the person's chat, secrets never", async ({
    expect,
  }) => {
    const store = items();
    const profiles = new KeptProfiles();
    const group = await readProfile({ profiles, store }, groupReader, 0);
    expect(group).toBe("- 住在杭州\n- 喜欢火锅");
    const own = await readProfile({ profiles, store }, privateReader, 0);
    expect(own?.split("\n").sort()).toEqual(["- 住在杭州", "- 喜欢火锅", "- 在准备考研"].sort());
    expect(`${group}${own}`).not.toMatch(/病历|阿丽|报告|群规/u);
  });

  it("are served from the store while current and rebuilt once the items' version moves", async ({
    expect,
  }) => {
    const store = items();
    const profiles = new KeptProfiles();
    await readProfile({ profiles, store }, groupReader, 0);
    // A saved profile is served as is while its version is current.
    profiles.saved.set("account:qq:user:A|person:alice/public", {
      version: 1,
      built: { text: "- 已保存", items: 1 },
    });
    expect(await readProfile({ profiles, store }, groupReader, 0)).toBe("- 已保存");
    profiles.version = 2;
    expect(await readProfile({ profiles, store }, groupReader, 0)).toBe("- 住在杭州\n- 喜欢火锅");
  });

  it("keep at most a few short lines, most important first, without repeats", ({ expect }) => {
    const many = Array.from({ length: 20 }, (_, i) =>
      memoryItem("person:alice", `第${i}件事`, { importance: i / 20 }),
    );
    const built = composeProfile([...many, memoryItem("person:alice", "第19件事", { importance: 0.1 })]);
    expect(built.items).toBe(PROFILE_MAX_ITEMS);
    expect(built.text.split("\n")[0]).toBe("- 第19件事");
    expect(new Set(built.text.split("\n")).size).toBe(PROFILE_MAX_ITEMS);
    const long = composeProfile([memoryItem("person:alice", "长".repeat(PROFILE_MAX_CHARS + 1))]);
    expect(long).toEqual({ text: "", items: 0 });
  });
});
