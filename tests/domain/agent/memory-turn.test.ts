import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { RecentTurn, TurnContext } from "@src/domain/agent/turn-context";
import type { TurnPorts } from "@src/domain/agent/turn-services";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { ManualClock } from "@src/domain/kernel/clock";
import { scopeKey } from "@src/domain/memory/scope";
import type { ChatModel } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { FakeShortTermContext } from "../../fakes/fake-short-term-context";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";
import { messageEvent } from "../../fakes/inbound";
import { callingOneTool, ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { turnPorts } from "../../fakes/turn-ports";
import { turnContext } from "../../support/turn-context";

const NOW = 1_700_000_000_000;
const A = "qq:private:A";

function context(text: string, over: Partial<TurnContext> = {}, chat = A): TurnContext {
  const event = messageEvent({ chat, text, sender: "A", name: "小明" });
  return turnContext(event, {
    text,
    settings: DEFAULT_SETTINGS,
    now: NOW,
    ...over,
  });
}

function services(
  model: ChatModel,
  memory = new InMemoryMemory(),
  session = new FakeShortTermContext(() => NOW),
): TurnPorts {
  return turnPorts({
    model,
    memory: memory.services(),
    shortTermContext: session,
    clock: new ManualClock(NOW),
  });
}

const system = (model: ScriptedChatModel, i = 0) => model.requests[i]?.messages[0]?.content ?? "";

describe("explicit memory in a turn", () => {
  it.for(["记住我喜欢猫", "/remember 我喜欢猫", "remember that I like cats"])(
    "writes %s at once, without the model",
    async (text, { expect }) => {
      const memory = new InMemoryMemory();
      const model = new ScriptedChatModel([]);
      const result = await runTurn(context(text), services(model, memory), defaultTurnRegistry());
      expect(result.ok && result.value.replies[0]).toMatch(/^好的，记住了：小明 ?(喜欢猫|likes cats)/);
      expect(model.requests).toHaveLength(0);
      expect(memory.items.map((m) => scopeKey(m.scope))).toEqual([`chat:${A}`]);
    },
  );

  it("says a secret request will be mentioned only in this chat", async ({ expect }) => {
    const memory = new InMemoryMemory();
    const result = await runTurn(
      context("记住我怕狗，别告诉别人"),
      services(new ScriptedChatModel([]), memory),
      defaultTurnRegistry(),
    );
    expect(result.ok && result.value.replies[0]).toContain("只会在本聊天里提起");
    expect(memory.items[0]).toMatchObject({ sensitivity: "secret_like", sensitivitySource: "explicit" });
  });

  it("says a restatement was merged into the item it restates, and names that item", async ({ expect }) => {
    const memory = new InMemoryMemory();
    const say = (text: string) =>
      runTurn(context(text), services(new ScriptedChatModel([]), memory), defaultTurnRegistry());
    await say("/remember 我喜欢徒步、长跑、打篮球和攀岩");
    const again = await say("/remember 我喜欢徒步，长跑，打篮球，攀岩");
    expect(again.ok && again.value.replies[0]).toMatch(
      /^这和我记得的一条说的是同一件事，已合并到那一条里：小明喜欢徒步、长跑、打篮球和攀岩（/,
    );
    expect(memory.items).toHaveLength(1);
  });
});

describe("memory in the prompt", () => {
  it("recalls matching items of the chat and global, with citations, never another chat's", async ({
    expect,
  }) => {
    const memory = new InMemoryMemory([
      memoryItem(`chat:${A}`, "小明喜欢猫"),
      memoryItem("global:__global__", "决定：周五发布", { kind: "decision" }),
      memoryItem("chat:qq:private:B", "小红喜欢猫"),
    ]);
    const model = new ScriptedChatModel([{ text: "猫" }]);
    const result = await runTurn(context("我喜欢什么猫"), services(model, memory), defaultTurnRegistry());
    expect(system(model)).toContain("小明喜欢猫");
    expect(system(model)).not.toContain("小红");
    const recalled = result.ok ? result.value.recalled.filter((r) => r.source === "memory") : [];
    expect(recalled.map((r) => r.meta?.scope)).toEqual([`chat:${A}`]);
    expect(recalled[0]?.citation).toMatch(/^记忆·本聊天·\d{4}-\d{2}-\d{2} #m_/);
  });

  it("always puts chat rules, important items and the latest summary in the mandatory block", async ({
    expect,
  }) => {
    const memory = new InMemoryMemory([
      memoryItem(`chat:${A}`, "群规：不许发广告", { kind: "rule", importance: 0.3 }),
      memoryItem("global:__global__", "服务器周日维护", { kind: "warning", importance: 0.9 }),
      memoryItem("chat:qq:private:B", "别人的重要事", { importance: 1 }),
    ]);
    memory.summaries.push({
      nodeId: "s1",
      scope: { type: "chat", id: A },
      text: "上次聊了旅行计划。",
      createdAt: NOW,
    });
    const model = new ScriptedChatModel([{ text: "你好" }]);
    await runTurn(context("你好"), services(model, memory), defaultTurnRegistry());
    expect(system(model)).toContain("## 重要记忆");
    expect(system(model)).toContain("群规：不许发广告");
    expect(system(model)).toContain("服务器周日维护");
    expect(system(model)).toContain("上次聊了旅行计划。");
    expect(system(model)).not.toContain("别人的重要事");
  });

  it("shows soft-scope items from elsewhere only when public and portable", async ({ expect }) => {
    const memory = new InMemoryMemory([
      memoryItem("chat:qq:group:G", "Vue 组件用 props 通信"),
      memoryItem("chat:qq:private:B", "小红的 Vue 项目延期了", { sensitivity: "private" }),
    ]);
    const settings = {
      ...DEFAULT_SETTINGS,
      memory: {
        ...DEFAULT_SETTINGS.memory,
        retrieval: { ...DEFAULT_SETTINGS.memory.retrieval, softScope: true },
      },
    };
    const model = new ScriptedChatModel([{ text: "ok" }]);
    await runTurn(context("Vue 组件", { settings }), services(model, memory), defaultTurnRegistry());
    expect(system(model)).toContain("Vue 组件用 props 通信");
    expect(system(model)).not.toContain("延期");
  });
});

describe("memory tools", () => {
  it("memory_write ignores a scope the model slipped in and writes where the kind maps", async ({
    expect,
  }) => {
    const memory = new InMemoryMemory();
    const model = callingOneTool(
      "memory_write",
      { kind: "fact", text: "小明住在杭州", scope: "chat:qq:private:B", scope_id: "B" },
      { text: "记下了" },
    );
    await runTurn(context("我住在杭州"), services(model, memory), defaultTurnRegistry());
    expect(memory.items.map((m) => [m.text, scopeKey(m.scope)])).toEqual([["小明住在杭州", `chat:${A}`]]);
  });

  it("memory_forget cannot touch another chat's item, and memory_search lists only readable items", async ({
    expect,
  }) => {
    const theirs = memoryItem("chat:qq:private:B", "小红喜欢狗");
    const mine = memoryItem(`chat:${A}`, "小明喜欢狗");
    const memory = new InMemoryMemory([theirs, mine]);
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { id: "c1", name: "memory_forget", arguments: JSON.stringify({ id: theirs.nodeId }) },
          { id: "c2", name: "memory_search", arguments: JSON.stringify({ query: "喜欢狗" }) },
        ],
      },
      { text: "好" },
    ]);
    await runTurn(context("忘掉狗的事"), services(model, memory), defaultTurnRegistry());
    const tools = model.requests[1]?.messages.filter((m) => m.role === "tool").map((m) => m.content) ?? [];
    expect(tools[0]).toContain("找不到");
    expect(tools[1]).toContain("小明喜欢狗");
    expect(tools[1]).not.toContain("小红");
    expect(memory.items.find((m) => m.nodeId === theirs.nodeId)?.status).toBe("active");
  });
});

describe("session reset", () => {
  const recent: RecentTurn[] = [
    { role: "user", name: "小明", text: "我们聊聊旧话题", ts: NOW - 2000 },
    { role: "assistant", name: null, text: "旧话题的回答", ts: NOW - 1000 },
  ];

  it("session_reset clears the context and the same turn rebuilds its mandatory block", async ({
    expect,
  }) => {
    const memory = new InMemoryMemory([memoryItem(`chat:${A}`, "小明喜欢猫", { importance: 0.9 })]);
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: "c1", name: "session_reset", arguments: "{}" }] },
      { text: "好的，重新开始吧。" },
    ]);
    const result = await runTurn(
      context("我们重新开始吧", { recent }),
      services(model, memory),
      defaultTurnRegistry(),
    );
    expect(result).toMatchObject({
      ok: true,
      value: { contextReset: true, replies: ["好的，重新开始吧。"] },
    });
    const before = JSON.stringify(model.requests[0]?.messages);
    const after = JSON.stringify(model.requests[1]?.messages);
    expect(before).toContain("旧话题的回答");
    expect(after).not.toContain("旧话题的回答");
    expect(after).toContain("小明喜欢猫");
    expect(after).toContain("长期记忆");
    expect(memory.items[0]?.status).toBe("active");
  });

  it("/reset says memory was kept and is limited to one per minute", async ({ expect }) => {
    const clock = { now: NOW };
    const session = new FakeShortTermContext(() => clock.now);
    const memory = new InMemoryMemory([memoryItem(`chat:${A}`, "小明喜欢猫")]);
    const reset = () =>
      runTurn(
        context("/reset", { recent }),
        services(new ScriptedChatModel([]), memory, session),
        defaultTurnRegistry(),
      );
    const first = await reset();
    expect(first).toMatchObject({ ok: true, value: { contextReset: true, command: "reset" } });
    expect(first.ok && first.value.replies[0]).toContain("长期记忆");
    clock.now += 30_000;
    const second = await reset();
    expect(second).toMatchObject({ ok: true, value: { contextReset: false } });
    expect(second.ok && second.value.replies[0]).toContain("30 秒后再试");
    clock.now += 31_000;
    expect((await reset()).ok && session.resets).toBe(2);
    expect(memory.items).toHaveLength(1);
  });
});
