import type { MemoryHit } from "@src/domain/memory/memory-store";
import { cascade, scoreHits, softRank, softVisible } from "@src/domain/memory/ranking";
import { parseScopeKey, type Scope } from "@src/domain/memory/scope";
import { describe, it } from "vitest";
import { memoryItem } from "../../fakes/in-memory-memory";

const NOW = 1_700_000_000_000;
const DAY = 86_400_000;
const scope = (key: string) => parseScopeKey(key) as Scope;
const hit = (key: string, text: string, rank: number, over: Partial<MemoryHit> = {}): MemoryHit => ({
  ...memoryItem(key, text, { updatedAt: NOW }),
  rank,
  ...over,
});

describe("scoreHits", () => {
  it("ranks by relevance × importance × recency", ({ expect }) => {
    const [relevant, important, old] = scoreHits(
      [
        hit("chat:a", "x", -2, { importance: 0.5 }),
        hit("chat:a", "y", -1, { importance: 1 }),
        hit("chat:a", "z", -2, { importance: 0.5, updatedAt: NOW - 90 * DAY }),
      ],
      NOW,
      30,
    ).map((s) => s.score);
    expect(relevant).toBeGreaterThan(old ?? 0);
    expect(important).toBeLessThan(relevant ?? 0);
    expect(important).toBeGreaterThan(0);
  });
});

describe("cascade", () => {
  const order = [scope("chat:qq:group:G1"), scope("global:__global__")];

  it("lets the chat scope take the budget first, then global fills the rest", ({ expect }) => {
    const hits = [
      hit("global:__global__", "全局很相关", -9),
      hit("chat:qq:group:G1", "本群一", -1),
      hit("chat:qq:group:G1", "本群二", -2),
      hit("global:__global__", "全局二", -3),
    ];
    expect(cascade(hits, order, 3, NOW, 30).map((s) => s.item.text)).toEqual([
      "本群二",
      "本群一",
      "全局很相关",
    ]);
  });

  it("never returns an item of a scope outside the order, and drops repeated text", ({ expect }) => {
    const hits = [
      hit("chat:qq:group:G2", "别的群", -10),
      hit("chat:qq:group:G1", "喜欢猫", -1),
      hit("global:__global__", "喜欢 猫！", -5),
    ];
    expect(cascade(hits, order, 5, NOW, 30).map((s) => s.item.text)).toEqual(["喜欢猫"]);
  });
});

describe("soft scope", () => {
  const own = [scope("chat:qq:group:A"), scope("global:__global__")];

  // [case, visible, sensitivity, portable, the item's scope]
  it.for([
    ["public elsewhere", true, "public", true, "chat:qq:group:B"],
    ["private elsewhere", false, "private", true, "chat:qq:group:B"],
    ["secret_like elsewhere", false, "secret_like", true, "chat:qq:group:B"],
    ["public but not portable elsewhere", false, "public", false, "chat:qq:group:B"],
    ["secret_like in its own scope", true, "secret_like", true, "chat:qq:group:A"],
    ["not portable in its own scope", true, "public", false, "chat:qq:group:A"],
  ] as const)("%s → visible %s", ([, visible, sensitivity, portable, key], { expect }) => {
    expect(softVisible({ scope: scope(key), sensitivity, portable }, own)).toBe(visible);
  });

  it("re-checks visibility even if the index returned a hidden item", ({ expect }) => {
    const hits = [
      hit("chat:qq:group:B", "B 的秘密", -10, { sensitivity: "secret_like" }),
      hit("chat:qq:group:B", "B 的公开事", -1),
    ];
    expect(softRank(hits, own, 5, NOW, 30).map((s) => s.item.text)).toEqual(["B 的公开事"]);
  });
});
