import type { MemoryEvidence } from "@src/domain/memory/memory";
import { ownMemory, parseOwnId, resolveOwnId, shortIds } from "@src/domain/memory/own-memory";
import { describe, it } from "vitest";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";

const said = (account: string): MemoryEvidence => ({
  session: "qq:group:G",
  messageIds: [],
  account,
  person: null,
  origin: "explicit",
  runId: "r",
});

describe("own memory", () => {
  it("in a group with identity off lists only the asker's public items of the group", async ({ expect }) => {
    const store = new InMemoryMemory([
      memoryItem("chat:qq:group:G", "A 喜欢猫", { evidence: said("qq:user:A") }),
      memoryItem("chat:qq:group:G", "A 的秘密", { evidence: said("qq:user:A"), sensitivity: "secret_like" }),
      memoryItem("chat:qq:group:G", "B 喜欢狗", { evidence: said("qq:user:B") }),
      memoryItem("chat:qq:private:A", "A 私聊说的"),
      memoryItem("global:__global__", "全局公告"),
    ]);
    const list = await ownMemory(store, {
      scopes: { session: "qq:group:G", identity: null },
      account: "qq:user:A",
    });
    expect(list.map((o) => o.item.text)).toEqual(["A 喜欢猫"]);
    // In the private chat: everything of it, whatever its level, and nothing of the group.
    const own = await ownMemory(store, {
      scopes: { session: "qq:private:A", identity: null },
      account: "qq:user:A",
    });
    expect(own.map((o) => o.item.text)).toEqual(["A 私聊说的"]);
    expect(
      await ownMemory(store, { scopes: { session: "qq:group:G", identity: null }, account: null }),
    ).toEqual([]);
  });

  it("gives each id the shortest prefix of six or more that no other id shares", ({ expect }) => {
    const ids = ["m_abcdef111", "m_abcdef222", "m_zzzzzz999"];
    expect([...shortIds(ids).values()]).toEqual(["abcdef1", "abcdef2", "zzzzzz"]);
  });

  it("reads an id strictly and resolves it among the list only", ({ expect }) => {
    expect(["abc123", "M_ABC123", " abc123 "].map(parseOwnId)).toEqual(["abc123", "abc123", "abc123"]);
    for (const odd of ["#3", "3", "abc 123", "abc12", "%", "a".repeat(23), "abc123;--", "m_"])
      expect({ odd, id: parseOwnId(odd) }).toEqual({ odd, id: null });
    const a = memoryItem("chat:qq:private:A", "一", { nodeId: "m_abcdef111" });
    const b = memoryItem("chat:qq:private:A", "二", { nodeId: "m_abcdef222" });
    const list = [
      { shortId: "abcdef1", item: a },
      { shortId: "abcdef2", item: b },
    ];
    expect(resolveOwnId(list, "abcdef")).toEqual({ kind: "ambiguous", count: 2 });
    expect(resolveOwnId(list, "abcdef2")).toEqual({ kind: "found", item: b });
    expect(resolveOwnId(list, "abcdef3")).toEqual({ kind: "not-found" });
  });
});
