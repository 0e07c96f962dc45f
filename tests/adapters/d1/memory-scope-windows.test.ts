// Hard-scope recall with a per-scope cap reads each scope's FTS window first: what it returns
// must be what the search over every match returns — no hidden item, no item of a scope the
// turn does not read, and a visible item is not crowded out by hidden ones that rank first.

import type { ReadableScope } from "@src/domain/memory/scope";
import { describe, it } from "vitest";
import { memoryStore, newMemory, seedMemory, uid } from "../../support/memory";

const chat = (key: string): ReadableScope => ({ type: "chat", id: key });
const personPublic = (id: string): ReadableScope => ({ type: "person", id, sensitivities: ["public"] });

/** A fresh search word, person and group, so that each test reads only its own items. */
const fresh = () => ({ word: `win${uid()}`, person: `p${uid()}`, group: `qq:group:G${uid()}` });
/** The D1 search for `text` over these scopes, at most `perScope` hits of each. */
const search = (text: string, scopes: ReadableScope[], limit: number, perScope: number) =>
  memoryStore().search({ text, scopes, limit, perScope });

/** An item dreaming judged `sensitivity`. */
const dreamt = (sensitivity: "private" | "secret_like") => ({
  sensitivity,
  sensitivitySource: "dream" as const,
});

describe("per-scope FTS windows", () => {
  it("never returns a person's private or secret_like item to a public-only read, however it ranks", async ({
    expect,
  }) => {
    const { word, person, group } = fresh();
    await seedMemory([
      // Hidden items that rank first (the word three times) fill the person's window.
      ...Array.from({ length: 8 }, (_, i) =>
        newMemory(
          `person:${person}`,
          `${word} ${word} ${word} 私事 ${i}`,
          dreamt(i % 2 === 0 ? "private" : "secret_like"),
        ),
      ),
      newMemory(`person:${person}`, `${word} 公开的爱好，后面还有很多别的字`),
      newMemory(`chat:${group}`, `${word} 群里的事`),
    ]);
    const hits = await search(word, [chat(group), personPublic(person)], 6, 3);
    expect(hits.map((h) => h.text).sort()).toEqual(
      [`${word} 公开的爱好，后面还有很多别的字`, `${word} 群里的事`].sort(),
    );
    expect(hits.every((h) => h.sensitivity === "public")).toBe(true);
  });

  it("never returns another chat's items, even when they rank first", async ({ expect }) => {
    const word = `win${uid()}`;
    const mine = `qq:group:M${uid()}`;
    await seedMemory([
      ...Array.from({ length: 6 }, (_, i) =>
        newMemory(`chat:qq:group:O${i}${uid()}`, `${word} ${word} ${word} 别处 ${i}`),
      ),
      ...Array.from({ length: 5 }, (_, i) => newMemory(`chat:${mine}`, `${word} 本群 ${i}${"长".repeat(i)}`)),
    ]);
    const hits = await search(word, [chat(mine)], 3, 3);
    expect(hits).toHaveLength(3);
    expect(hits.every((h) => h.scope.id === mine)).toBe(true);
    // The best three of the scope, in rank order: the shortest texts first.
    expect(hits.map((h) => h.text)).toEqual([0, 1, 2].map((i) => `${word} 本群 ${i}${"长".repeat(i)}`));
  });

  it("falls back to every match when a window holds archived items, and still fills the cap", async ({
    expect,
  }) => {
    const word = `win${uid()}`;
    const mine = `qq:group:M${uid()}`;
    const archived = await seedMemory(
      Array.from({ length: 4 }, (_, i) => newMemory(`chat:${mine}`, `${word} ${word} ${word} 旧 ${i}`)),
    );
    await seedMemory(Array.from({ length: 3 }, (_, i) => newMemory(`chat:${mine}`, `${word} 新的内容 ${i}`)));
    await memoryStore().commit({
      runId: `archive:${uid()}`,
      chatKey: mine,
      at: Date.now(),
      writable: [{ type: "chat", id: mine }],
      inserts: [],
      supersede: [],
      archive: archived,
      updates: [],
      candidates: [],
    });
    const hits = await search(word, [chat(mine)], 3, 3);
    expect(hits.map((h) => h.text).sort()).toEqual([0, 1, 2].map((i) => `${word} 新的内容 ${i}`));
  });

  it("a window that held every match hides its private rows from a public-only read, and shows them to the owner", async ({
    expect,
  }) => {
    // Fewer matches than the window: the windowed answer is exact and returned as it is (no
    // fallback), so the re-check inside the window's join is all that stands between the
    // person's private and secret_like items and a group chat.
    const { word, person, group } = fresh();
    await seedMemory([
      newMemory(`person:${person}`, `${word} ${word} ${word} 私事`, dreamt("private")),
      newMemory(`person:${person}`, `${word} ${word} 密码提示`, dreamt("secret_like")),
      newMemory(`person:${person}`, `${word} 公开的爱好`),
      newMemory(`chat:${group}`, `${word} 群里的事`),
    ]);
    const inGroup = await search(word, [chat(group), personPublic(person)], 10, 12);
    expect(inGroup.map((h) => h.text).sort()).toEqual([`${word} 公开的爱好`, `${word} 群里的事`].sort());
    // The person's own private chat reads their scope at every level.
    const own = await search(word, [{ type: "person", id: person }], 10, 12);
    expect(own.map((h) => h.sensitivity).sort()).toEqual(["private", "public", "secret_like"]);
    // Another person's private chat reads none of them.
    const other = await search(word, [{ type: "person", id: `p${uid()}` }, chat(group)], 10, 12);
    expect(other.map((h) => h.text)).toEqual([`${word} 群里的事`]);
  });

  it("answers each scope's best hits in rank order when every window is exact", async ({ expect }) => {
    const word = `win${uid()}`;
    const a = `qq:group:A${uid()}`;
    const b = `qq:group:B${uid()}`;
    await seedMemory([
      ...Array.from({ length: 5 }, (_, i) => newMemory(`chat:${a}`, `${word} 甲 ${i}${"长".repeat(2 * i)}`)),
      ...Array.from({ length: 2 }, (_, i) =>
        newMemory(`chat:${b}`, `${word} 乙 ${i}${"长".repeat(2 * i + 1)}`),
      ),
    ]);
    const hits = await search(word, [chat(a), chat(b)], 10, 3);
    // A's best three (its window, full and all visible) and B's two (fewer than the window).
    expect(hits.map((h) => h.text).sort()).toEqual(
      [
        ...[0, 1, 2].map((i) => `${word} 甲 ${i}${"长".repeat(2 * i)}`),
        ...[0, 1].map((i) => `${word} 乙 ${i}${"长".repeat(2 * i + 1)}`),
      ].sort(),
    );
    const ranks = hits.map((h) => h.rank);
    expect([...ranks].sort((x, y) => x - y)).toEqual(ranks);
  });
});
