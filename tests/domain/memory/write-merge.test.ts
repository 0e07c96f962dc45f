import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { silentLogger } from "@src/domain/kernel/logger";
import { type DreamTurn, dream } from "@src/domain/memory/dreaming";
import { type RememberRequest, remember } from "@src/domain/memory/remember";
import { describe, it } from "vitest";
import { InMemoryMemory } from "../../fakes/in-memory-memory";
import { dreamTurn } from "../../support/dream-turn";

const NOW = 1_700_000_000_000;
const request = (text: string, n: number): RememberRequest => ({
  text,
  origin: "explicit",
  scopes: { session: "qq:private:A", identity: null },
  speaker: { name: "小明", id: "qq:user:A" },
  account: "qq:user:A",
  messageId: `m${n}`,
  runId: `turn:e${n}`,
  chatKey: "qq:private:A",
  now: NOW + n,
});

const turn = (text: string, seq: number): DreamTurn =>
  dreamTurn(text, { seq, messageId: `d${seq}`, ts: NOW + seq });

const dreamRun = (store: InMemoryMemory, texts: string[], run: string, mergeRestatements = true) =>
  dream(
    { runId: run, session: "qq:group:G", turns: texts.map(turn), now: NOW + 100, useModel: false },
    { model: new OfflineChatModel(), store, logger: silentLogger, now: () => NOW + 100, mergeRestatements },
  );

describe("merge on write", () => {
  it("/remember merges a restatement into the item, which keeps its id, and says so", async ({ expect }) => {
    const store = new InMemoryMemory();
    const first = await remember(store, request("我喜欢徒步、长跑、打篮球和攀岩", 1));
    const again = await remember(store, request("我喜欢徒步，长跑，打篮球，攀岩", 2));
    expect(again.ok && again.value[0]?.decision).toBe("merge");
    expect(again.ok && again.value[0]?.item.nodeId).toBe(first.ok && first.value[0]?.item.nodeId);
    expect(store.items.filter((m) => m.status === "active")).toHaveLength(1);
    expect(store.items[0]?.evidence?.messageIds).toEqual(["m1", "m2"]);
    expect(store.candidates.at(-1)).toMatchObject({
      decision: "duplicate",
      reason: expect.stringContaining("restatement merged into"),
      targetNodeId: first.ok && first.value[0]?.item.nodeId,
    });
  });

  it("dreaming merges within a run and across runs, raising confidence; off, it stores both", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    await dreamRun(store, ["我喜欢徒步、长跑、打篮球和攀岩"], "r1");
    const report = await dreamRun(
      store,
      ["我喜欢徒步，长跑，打篮球，攀岩", "我喜欢徒步、长跑、打篮球、攀岩"],
      "r2",
    );
    expect(report.ok && report.value.inserted).toBe(0);
    expect(store.items).toHaveLength(1);
    expect(store.items[0]).toMatchObject({ confidence: 0.936, evidence: { messageIds: ["d0", "d1"] } });
    const off = new InMemoryMemory();
    await dreamRun(off, ["我喜欢徒步、长跑、打篮球和攀岩"], "r1", false);
    await dreamRun(off, ["我喜欢徒步，长跑，打篮球，攀岩"], "r2", false);
    expect(off.items).toHaveLength(2);
  });

  it("a new value of the same slot supersedes instead of merging", async ({ expect }) => {
    const store = new InMemoryMemory();
    await dreamRun(store, ["我住在北京市海淀区"], "r1");
    await dreamRun(store, ["我住在北京市朝阳区"], "r2");
    expect(store.items.map((m) => [m.text, m.status])).toEqual([
      ["小明住在北京市海淀区", "superseded"],
      ["小明住在北京市朝阳区", "active"],
    ]);
  });
});
