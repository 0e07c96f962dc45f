import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import type { AccountKey } from "@src/domain/chat/chat-address";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { type DreamInput, type DreamTurn, dream, nextDreamAt } from "@src/domain/memory/dreaming";
import { scopeKey } from "@src/domain/memory/scope";
import type { ChatModel } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { dreamTurn } from "../../support/dream-turn";

const NOW = 1_700_000_000_000;
const A = "qq:private:A";

let ids = 0;
function turn(text: string, over: Partial<DreamTurn> = {}): DreamTurn {
  ids++;
  return dreamTurn(text, { messageId: `m${ids}`, ts: NOW, ...over });
}

const input = (turns: DreamTurn[], over: Partial<DreamInput> = {}): DreamInput => ({
  runId: `dream:${A}:1-${turns.length}`,
  session: A,
  turns,
  now: NOW,
  useModel: false,
  ...over,
});

const deps = (store: InMemoryMemory, model: ChatModel = new OfflineChatModel()) => ({
  model,
  store,
  logger: silentLogger,
  now: () => NOW,
});

const modelSays = (json: unknown) =>
  new ScriptedChatModel([{ text: typeof json === "string" ? json : JSON.stringify(json) }]);

describe("dream (rules, offline)", () => {
  it("extracts, maps kind to scope, tags, writes and audits every candidate in one commit", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    const out = await dream(
      input([
        turn("我喜欢猫"),
        turn("好的", { role: "assistant", name: null, account: null }),
        turn("我们决定周五发布"),
      ]),
      deps(store),
    );
    expect(out).toMatchObject({ ok: true, value: { extractor: "rules", inserted: 2, candidates: 2 } });
    expect(store.items.map((m) => [m.text, scopeKey(m.scope)])).toEqual([
      ["小明喜欢猫", "chat:qq:private:A"],
      // Dreaming never writes global: a shared kind stays in the chat it was said in.
      ["决定：周五发布", "chat:qq:private:A"],
    ]);
    expect(store.candidates.map((c) => [c.origin, c.decision])).toEqual([
      ["dream", "insert"],
      ["dream", "insert"],
    ]);
    expect(store.commits).toHaveLength(1);
    expect(store.runs.has(`dream:${A}:1-3`)).toBe(true);
  });

  it("publishes only what the turn with the permission said, whatever the extractor cites", async ({
    expect,
  }) => {
    const store = new InMemoryMemory();
    const model = modelSays({
      memories: [
        { kind: "fact", text: "小明升职了", importance: 0.9, turn: 1, sensitivity: "public" },
        // An earlier private matter cited as if the marked turn had said it.
        { kind: "fact", text: "小明上周确诊了糖尿病", importance: 0.9, turn: 1, sensitivity: "public" },
      ],
      archive: [],
      summary: "",
    });
    await dream(
      input([turn("我上周确诊了糖尿病"), turn("我升职了，可以告诉大家")], { useModel: true }),
      deps(store, model),
    );
    expect(Object.fromEntries(store.items.map((m) => [m.text, m.sensitivity === "public"]))).toEqual({
      小明升职了: true,
      小明上周确诊了糖尿病: false,
    });
  });

  it("tags what a private chat says private by origin, whatever its wording", async ({ expect }) => {
    const store = new InMemoryMemory();
    await dream(input([turn("我的老板是王总"), turn("我喜欢摇滚乐")]), deps(store));
    expect(store.items.map((m) => [m.sensitivity, m.sensitivitySource])).toEqual([
      ["private", "origin"],
      ["private", "origin"],
    ]);
  });

  it("applies a bare privacy request to the speaker's previous message, explicitly", async ({ expect }) => {
    const store = new InMemoryMemory();
    await dream(input([turn("我喜欢摇滚乐"), turn("这个别在别处提")]), deps(store));
    expect(store.items).toEqual([
      expect.objectContaining({
        text: "小明喜欢摇滚乐",
        sensitivity: "private",
        sensitivitySource: "explicit",
      }),
    ]);
  });

  it("keeps nothing of what its speaker asks that nothing be kept, before or after, and keeps the rest", async ({
    expect,
  }) => {
    for (const turns of [
      [turn("我喜欢摇滚乐"), turn("我的老板是王总"), turn("机器人别记这个")],
      [turn("我喜欢摇滚乐"), turn("我的老板是王总"), turn("上面那些机器人都别记哈，我在气头上")],
      [
        turn("bot don't remember this pls"),
        turn("我的老板是王总"),
        turn("我喜欢摇滚乐", { ts: NOW + 60_000 }),
      ],
    ]) {
      const store = new InMemoryMemory();
      await dream(input(turns), deps(store));
      expect(
        store.items.map((m) => m.text),
        turns.map((t) => t.text).join(" / "),
      ).toEqual(["小明喜欢摇滚乐"]);
    }
    // Asking listeners to unhear it is no request to the bot: remembered, and not public.
    const store = new InMemoryMemory();
    await dream(input([turn("跟你们说，出了这个群就当没听过"), turn("我的老板是王总")]), deps(store));
    expect(store.items.map((m) => [m.text, m.sensitivity])).toEqual([["小明的老板是王总", "secret_like"]]);
  });

  it("never deduplicates against, supersedes or archives another chat's items", async ({ expect }) => {
    const ofB = memoryItem("chat:qq:private:B", "小明喜欢猫", { subjectKey: "pref:小明:猫" });
    const store = new InMemoryMemory([ofB]);
    await dream(input([turn("我喜欢猫"), turn("我不喜欢猫")]), deps(store));
    expect(store.items.find((m) => m.nodeId === ofB.nodeId)).toEqual(ofB);
    const mine = store.items.filter((m) => m.scope.id === A);
    expect(mine.map((m) => [m.text, m.status])).toEqual([
      ["小明喜欢猫", "superseded"],
      ["小明不喜欢猫", "active"],
    ]);
    expect(store.candidates.map((c) => c.decision)).toEqual(["insert", "supersede"]);
  });

  it("deduplicates within the target scope; the item said again gains importance and an explicit tag", async ({
    expect,
  }) => {
    const store = new InMemoryMemory([memoryItem(`chat:${A}`, "小明喜欢猫", { importance: 0.5 })]);
    await dream(input([turn("我喜欢猫，这是私下的")]), deps(store));
    expect(store.items).toEqual([
      expect.objectContaining({ importance: 0.55, sensitivity: "private", sensitivitySource: "explicit" }),
    ]);
    expect(store.candidates).toEqual([expect.objectContaining({ decision: "duplicate" })]);
  });

  it("changes nothing when the same run is committed again", async ({ expect }) => {
    const store = new InMemoryMemory();
    await dream(input([turn("我喜欢猫")]), deps(store));
    const again = await dream(input([turn("我喜欢猫")]), deps(store));
    expect(again).toMatchObject({ ok: true, value: { alreadyApplied: true, inserted: 0 } });
    expect(store.items).toHaveLength(1);
  });
});

describe("dream (model)", () => {
  it("logs malformed output and writes nothing", async ({ expect }) => {
    for (const bad of [
      "not json",
      { memories: [{ kind: "gossip", text: "x", importance: 1, turn: 0 }] },
      { archive: [] },
    ]) {
      const store = new InMemoryMemory();
      const out = await dream(input([turn("我喜欢猫")], { useModel: true }), deps(store, modelSays(bad)));
      expect(out).toMatchObject({ ok: false, error: { kind: "malformed" } });
      expect(store.commits).toEqual([]);
      expect(store.items).toEqual([]);
    }
  });

  it("shows the model only items of writable scopes and refuses to archive anything else", async ({
    expect,
  }) => {
    const ofA = memoryItem(`chat:${A}`, "小明住在上海");
    const ofB = memoryItem("chat:qq:private:B", "小红住在北京");
    const store = new InMemoryMemory([ofA, ofB]);
    const model = modelSays({
      memories: [{ kind: "fact", text: "小明搬到了杭州", importance: 0.6, turn: 0, supersedes: ofA.nodeId }],
      archive: [{ id: ofB.nodeId, reason: "过时" }],
      summary: "小明说自己搬家了。",
    });
    await dream(input([turn("我搬到杭州了")], { useModel: true }), deps(store, model));
    const prompt = model.requests[0]?.messages.map((m) => m.content).join("\n") ?? "";
    expect(prompt).toContain(ofA.nodeId);
    expect(prompt).not.toContain(ofB.nodeId);
    expect(model.requests[0]?.jsonSchema?.name).toBe("memory_extraction");
    expect(store.items.find((m) => m.nodeId === ofB.nodeId)?.status).toBe("active");
    expect(store.items.find((m) => m.nodeId === ofA.nodeId)?.status).toBe("superseded");
    expect(store.candidates.map((c) => [c.decision, c.targetNodeId])).toEqual([
      ["supersede", ofA.nodeId],
      ["rejected", ofB.nodeId],
    ]);
    expect(store.summaries).toEqual([
      expect.objectContaining({ text: "小明说自己搬家了。", scope: { type: "chat", id: A } }),
    ]);
  });

  it("inserts instead when the model's supersede target is in another scope", async ({ expect }) => {
    const ofB = memoryItem("chat:qq:private:B", "小明喜欢狗");
    const store = new InMemoryMemory([ofB]);
    const model = modelSays({
      memories: [
        { kind: "preference", text: "小明喜欢猫", importance: 0.5, turn: 0, supersedes: ofB.nodeId },
      ],
      archive: [],
      summary: null,
    });
    await dream(input([turn("我喜欢猫")], { useModel: true }), deps(store, model));
    expect(store.items.find((m) => m.nodeId === ofB.nodeId)?.status).toBe("active");
    expect(store.candidates[0]).toMatchObject({
      decision: "insert",
      reason: expect.stringContaining("not an item of the target scope"),
    });
  });

  it("rejects credentials and candidates without a user turn, and audits them", async ({ expect }) => {
    const store = new InMemoryMemory();
    const model = modelSays({
      memories: [
        { kind: "fact", text: "小明的 token 是 sk-abcdefghijklmnopqrstuv", importance: 0.9, turn: 0 },
        { kind: "fact", text: "机器人说了你好", importance: 0.2, turn: 1 },
        { kind: "preference", text: "小明喜欢猫", importance: 0.5, turn: 7 },
      ],
      archive: [],
      summary: null,
    });
    await dream(
      input(
        [turn("我的 token 是 sk-abcdefghijklmnopqrstuv"), turn("你好", { role: "assistant", account: null })],
        {
          useModel: true,
        },
      ),
      deps(store, model),
    );
    expect(store.items).toEqual([]);
    expect(store.candidates.map((c) => [c.decision, c.reason])).toEqual([
      ["rejected", "credential"],
      ["rejected", "no user turn"],
      ["rejected", "no user turn"],
    ]);
    expect(JSON.stringify(store.candidates)).not.toContain("sk-abc");
  });
});

describe("nextDreamAt", () => {
  const settings = { ...DEFAULT_SETTINGS.memory.dreaming, afterTurns: 3, idleMinutes: 10 };
  it("is due at once after N turns, after the idle period otherwise, and backs off after failures", ({
    expect,
  }) => {
    const state = { pending: 1, newestTs: NOW, oldestTs: NOW, failures: 0, lastFailureAt: null };
    expect(nextDreamAt({ ...state, pending: 0, newestTs: null }, settings, NOW)).toBeNull();
    expect(nextDreamAt(state, settings, NOW)).toBe(NOW + 600_000);
    expect(nextDreamAt({ ...state, pending: 3 }, settings, NOW)).toBe(NOW);
    expect(nextDreamAt({ ...state, pending: 3, failures: 2, lastFailureAt: NOW }, settings, NOW)).toBe(
      NOW + 120_000,
    );
    expect(nextDreamAt({ ...state, pending: 3 }, { ...settings, enabled: false }, NOW)).toBeNull();
  });

  it("waits until the oldest waiting turn has settled, however many turns wait", ({ expect }) => {
    const SETTLE = 600_000;
    const state = { pending: 30, newestTs: NOW, oldestTs: NOW - 60_000, failures: 0, lastFailureAt: null };
    expect(nextDreamAt(state, settings, NOW, SETTLE)).toBe(NOW - 60_000 + SETTLE);
    expect(nextDreamAt({ ...state, oldestTs: NOW - 2 * SETTLE }, settings, NOW, SETTLE)).toBe(NOW);
    // Idle for longer than the window: due when idle, as without it.
    expect(nextDreamAt({ ...state, pending: 1 }, { ...settings, idleMinutes: 30 }, NOW, SETTLE)).toBe(
      NOW + 30 * 60_000,
    );
  });
});

describe("dreaming and the privacy rules", () => {
  const alice = {
    enabled: true,
    account: "qq:user:ALICE" as AccountKey,
    personId: "alice",
    declared: true,
  } as const;

  it("never shows the model a person's private items while dreaming over a group", async ({ expect }) => {
    const store = new InMemoryMemory([
      memoryItem("person:alice", "爱丽丝下个月要离职", { sensitivity: "private" }),
      memoryItem("person:alice", "爱丽丝的银行卡尾号 4321", { sensitivity: "secret_like" }),
      memoryItem("person:alice", "爱丽丝喜欢爬山"),
    ]);
    const model = modelSays({ items: [] });
    await dream(
      input([turn("我喜欢猫", { account: "qq:user:ALICE", identity: alice })], {
        session: "qq:group:G1",
        runId: "dream:qq:group:G1:1-1",
        useModel: true,
      }),
      deps(store, model),
    );
    const seen = JSON.stringify(model.requests);
    expect(seen).toContain("爬山");
    expect(seen).not.toContain("离职");
    expect(seen).not.toContain("4321");
  });

  it("writes nothing in a legacy session, whose only scope is global", async ({ expect }) => {
    const store = new InMemoryMemory();
    await dream(
      input([turn("我们决定周五发布")], { session: "milky:10001", runId: "dream:milky:10001:1-1" }),
      deps(store),
    );
    expect(store.items).toEqual([]);
  });
});
