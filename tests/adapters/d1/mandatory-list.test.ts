// The mandatory block's lists (`listActive`) read each readable scope's own best items and
// merge them: whatever ranks highest, a person's private and secret_like items reach only that
// person's own private chat, another chat's items reach no one else's, and the merge is the
// one list most important first.

import { turnScopes } from "@src/domain/memory/scope";
import { describe, it } from "vitest";
import { memoryStore, newMemory, seedMemory, uid } from "../../support/memory";

describe("the mandatory block's lists", () => {
  it("never lists a person's private or secret_like items in a group, however important", async ({
    expect,
  }) => {
    const person = `p${uid()}`;
    const group = `qq:group:G${uid()}`;
    const tag = uid();
    await seedMemory([
      // Hidden items that rank first fill more than the limit.
      ...Array.from({ length: 8 }, (_, i) =>
        newMemory(`person:${person}`, `${tag} 私事 ${i}`, {
          importance: 1,
          sensitivity: i % 2 === 0 ? "private" : "secret_like",
          sensitivitySource: "dream",
        }),
      ),
      newMemory(`person:${person}`, `${tag} 公开的爱好`, { importance: 0.85 }),
      newMemory(`chat:${group}`, `${tag} 群规`, { importance: 0.9 }),
      newMemory(`chat:qq:group:O${uid()}`, `${tag} 别的群`, { importance: 1 }),
    ]);
    const identity = { enabled: true, account: "qq:user:U" as never, personId: person, declared: true };
    const inGroup = turnScopes({ session: group, identity, linkedChats: [], writesGlobal: false });
    const listed = await memoryStore().listActive({ scopes: inGroup.readable, limit: 6, minImportance: 0.8 });
    const mine = listed.filter((m) => m.text.startsWith(tag));
    expect(mine.map((m) => m.text)).toEqual([`${tag} 群规`, `${tag} 公开的爱好`]);
    expect(listed.every((m) => m.sensitivity === "public")).toBe(true);

    // The person's own private chat lists them, most important first, within the limit.
    const privateChat = `qq:private:U${uid()}`;
    const own = turnScopes({ session: privateChat, identity, linkedChats: [], writesGlobal: false });
    const ownList = await memoryStore().listActive({ scopes: own.readable, limit: 6, minImportance: 0.8 });
    const ownTagged = ownList.filter((m) => m.text.startsWith(tag));
    expect(ownTagged).toHaveLength(6);
    expect(ownTagged.every((m) => m.importance === 1)).toBe(true);
    expect(new Set(ownTagged.map((m) => m.sensitivity))).toEqual(new Set(["private", "secret_like"]));
    expect(ownList.some((m) => m.text === `${tag} 别的群`)).toBe(false);
  });

  it("merges the scopes' lists into one, most important then newest first, each item once", async ({
    expect,
  }) => {
    const a = `qq:group:A${uid()}`;
    const b = `qq:group:B${uid()}`;
    const at = Date.now();
    await seedMemory([newMemory(`chat:${a}`, "甲 0.9", { importance: 0.9 })], at);
    await seedMemory([newMemory(`chat:${b}`, "乙 0.9 新", { importance: 0.9 })], at + 1000);
    await seedMemory(
      [
        newMemory(`chat:${a}`, "甲 0.5", { importance: 0.5 }),
        newMemory(`chat:${b}`, "乙 0.7", { importance: 0.7, kind: "rule" }),
        newMemory(`chat:${b}`, "乙 0.2", { importance: 0.2 }),
      ],
      at,
    );
    const scopes = [
      { type: "chat" as const, id: a },
      { type: "chat" as const, id: b },
      // The same scope again at one level: its items still come once.
      { type: "chat" as const, id: b, sensitivities: ["public" as const] },
    ];
    const list = await memoryStore().listActive({ scopes, limit: 4 });
    expect(list.map((m) => m.text)).toEqual(["乙 0.9 新", "甲 0.9", "乙 0.7", "甲 0.5"]);
    const rules = await memoryStore().listActive({ scopes, limit: 4, kinds: ["rule"] });
    expect(rules.map((m) => m.text)).toEqual(["乙 0.7"]);
  });
});
