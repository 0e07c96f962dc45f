// Issue rules end to end in the turn (fakes for storage): who may write the global scope, what
// a group turn may read of a person, and where a cross-chat read may land.

import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { TurnPorts } from "@src/domain/agent/turn-services";
import type { AccountKey } from "@src/domain/chat/chat-address";
import type { Settings } from "@src/domain/config/settings";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import type { SenderIdentity } from "@src/domain/identity/sender-identity";
import { ManualClock } from "@src/domain/kernel/clock";
import { silentLogger } from "@src/domain/kernel/logger";
import { scopeKey } from "@src/domain/memory/scope";
import type { ChatModel } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { ADMIN, MEMBER, withIdentity } from "../../fakes/identity-settings";
import { hit, InMemoryHistory } from "../../fakes/in-memory-history";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";
import { messageEvent } from "../../fakes/inbound";
import { callingOneTool, ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { turnPorts } from "../../fakes/turn-ports";
import { turnContext } from "../../support/turn-context";

const NOW = 1_700_000_000_000;
const registry = () => defaultTurnRegistry(silentLogger);

function context(
  chat: string,
  account: string | AccountKey,
  text: string,
  settings: Settings,
  identity: (Omit<Partial<SenderIdentity>, "account"> & { account?: string }) | null = null,
): TurnContext {
  const userId = account.split(":").at(-1) ?? "U";
  const event = messageEvent({ chat, text, sender: userId, name: userId });
  return turnContext(event, {
    identity:
      identity === null
        ? null
        : ({ enabled: true, personId: null, declared: false, ...identity, account } as SenderIdentity),
    text,
    settings,
    now: NOW,
  });
}

function ports(model: ChatModel, memory: InMemoryMemory, history = new InMemoryHistory()): TurnPorts {
  return turnPorts({ model, memory: memory.services(), history, clock: new ManualClock(NOW) });
}

/** One turn over this memory, the model scripted, with the default tools. */
const runWith = (ctx: TurnContext, model: ScriptedChatModel, memory: InMemoryMemory) =>
  runTurn(ctx, ports(model, memory), registry());

/** `text` said in A's private chat with identity on, the model asked nothing: its memory and turn. */
async function saidInPrivateChat(text: string) {
  const memory = new InMemoryMemory();
  const ctx = context("qq:private:A", "qq:user:A", text, withIdentity(), { account: "qq:user:A" });
  const result = await runWith(ctx, new ScriptedChatModel([]), memory);
  return { memory, result };
}

const write = (kind: string, text: string) => callingOneTool("memory_write", { kind, text }, { id: "w1" });

const toolResults = (model: ScriptedChatModel, round = 1) =>
  model.requests[round]?.messages.filter((m) => m.role === "tool").map((m) => m.content) ?? [];

describe("only an admin writes the global scope", () => {
  it.for(["decision", "procedure", "warning", "summary", "rule"])(
    "memory_write of %s by a member in a group stays in that group",
    async (kind, { expect }) => {
      const memory = new InMemoryMemory();
      const ctx = context("qq:group:G1", MEMBER, "记一下", withIdentity(), { account: MEMBER });
      await runWith(ctx, write(kind, "我们决定周六去团建"), memory);
      expect(memory.items.map((m) => scopeKey(m.scope))).toEqual(["chat:qq:group:G1"]);
    },
  );

  it("memory_write of a decision by an admin goes global only when the admin's message in a group says so", async ({
    expect,
  }) => {
    const memory = new InMemoryMemory();
    const inGroup = context("qq:group:G1", ADMIN, "全局：记一下", withIdentity(), { account: ADMIN });
    await runWith(inGroup, write("decision", "周一例会改到十点"), memory);
    const unmarked = context("qq:group:G1", ADMIN, "记一下", withIdentity(), { account: ADMIN });
    await runWith(unmarked, write("decision", "周二例会改到十点"), memory);
    const inPrivate = context("qq:private:ADMIN_OPENID", ADMIN, "全局：记一下", withIdentity(), {
      account: ADMIN,
    });
    await runWith(inPrivate, write("decision", "周三例会改到十点"), memory);
    expect(memory.items.map((m) => scopeKey(m.scope))).toEqual([
      "global:__global__",
      "chat:qq:group:G1",
      "chat:qq:private:ADMIN_OPENID",
    ]);
  });

  it("a model that claims admin in its arguments still writes to the chat", async ({ expect }) => {
    const memory = new InMemoryMemory();
    const model = callingOneTool(
      "memory_write",
      { kind: "decision", text: "大家决定换群主", admin: true, isAdmin: true },
      { id: "w1" },
    );
    await runWith(context("qq:group:G1", MEMBER, "x", withIdentity(), { account: MEMBER }), model, memory);
    expect(memory.items.map((m) => scopeKey(m.scope))).toEqual(["chat:qq:group:G1"]);
  });

  it("/remember of a decision with identity off stays in the private chat and says so", async ({
    expect,
  }) => {
    const memory = new InMemoryMemory();
    const ctx = context("qq:private:A", "qq:user:A", "/remember 决定下个月离职去杭州", DEFAULT_SETTINGS);
    const result = await runWith(ctx, new ScriptedChatModel([]), memory);
    expect(memory.items.map((m) => [scopeKey(m.scope), m.kind, m.sensitivity])).toEqual([
      ["chat:qq:private:A", "decision", "private"],
    ]);
    expect(result.ok && result.value.replies.join()).toContain(
      "（本聊天，只会在本聊天里提起；要公开请发 /share m_",
    );
  });

  it("/remember with a clear permission in a private chat says the person's group turns will mention it, and how to take it back", async ({
    expect,
  }) => {
    const text = "/remember 我下个月搬去杭州，可以告诉大家";
    const { memory, result } = await saidInPrivateChat(text);
    expect(memory.items.map((m) => [scopeKey(m.scope), m.sensitivity])).toEqual([
      ["account:qq:user:A", "public"],
    ]);
    const reply = result.ok ? result.value.replies.join() : "";
    expect(reply).toContain("按你说的，你在群里和我说话时也会提起；不想公开请发 /forget m_");
    expect(reply).not.toContain("/share");
    // Kept in the private chat's own scope (identity off), no group reads it: nothing is claimed.
    const off = new InMemoryMemory();
    const alone = await runWith(
      context("qq:private:A", "qq:user:A", text, DEFAULT_SETTINGS),
      new ScriptedChatModel([]),
      off,
    );
    expect(off.items.map((m) => scopeKey(m.scope))).toEqual(["chat:qq:private:A"]);
    expect(alone.ok && alone.value.replies.join()).not.toContain("群里");
  });

  it("/remember whose permission follows only its last sentence keeps the whole item private", async ({
    expect,
  }) => {
    const { memory } = await saidInPrivateChat(
      "/remember 我上周确诊了糖尿病。我下个月搬去杭州，可以告诉大家",
    );
    expect(memory.items.length).toBeGreaterThan(0);
    expect(memory.items.map((m) => m.sensitivity)).not.toContain("public");
  });

  it("memory_write during a turn with a permission publishes only what that message said", async ({
    expect,
  }) => {
    const said = "我升职了，可以告诉大家";
    const written = async (text: string) => {
      const memory = new InMemoryMemory();
      const ctx = context("qq:private:A", "qq:user:A", said, withIdentity(), { account: "qq:user:A" });
      const model = callingOneTool(
        "memory_write",
        { kind: "fact", text, sensitivity: "public" },
        { id: "w1" },
      );
      await runWith(ctx, model, memory);
      return memory.items.map((m) => m.sensitivity);
    };
    expect(await written("A升职了")).toEqual(["public"]);
    // An earlier private matter, written by the model in the marked turn, stays private.
    for (const text of ["A上周确诊了癌症", "A升职了，还搬去了杭州"]) {
      const kept = await written(text);
      expect(kept).toHaveLength(1);
      expect(kept).not.toContain("public");
    }
  });

  it("a member cannot forget a global item", async ({ expect }) => {
    const shared = memoryItem("global:__global__", "周一例会改到十点", { kind: "decision" });
    const memory = new InMemoryMemory([shared]);
    const model = callingOneTool("memory_forget", { id: shared.nodeId }, { id: "f1" });
    await runWith(context("qq:group:G1", MEMBER, "忘掉", withIdentity(), { account: MEMBER }), model, memory);
    expect(toolResults(model)[0]).toContain("找不到");
    expect(memory.items[0]?.status).toBe("active");
  });
});

describe("a person's private items stay in their own private chats", () => {
  const settings = withIdentity({
    people: [{ id: "alice", displayName: "爱丽丝", accounts: ["qq:user:ALICE"] }],
  });
  const alice = { account: "qq:user:ALICE", personId: "alice", declared: true } as const;
  const items = () => [
    memoryItem("person:alice", "爱丽丝下个月要离职", { sensitivity: "private", importance: 0.95 }),
    memoryItem("person:alice", "爱丽丝的银行卡尾号 4321", { sensitivity: "secret_like", importance: 0.95 }),
    memoryItem("person:alice", "爱丽丝喜欢离职后去旅行的计划", { sensitivity: "public", importance: 0.95 }),
  ];

  it.for([false, true])(
    "a group turn of the person gets only public items, in the prompt and from memory_search (soft %s)",
    async (soft, { expect }) => {
      const memory = new InMemoryMemory(items());
      const model = new ScriptedChatModel([
        {
          toolCalls: [
            { id: "s1", name: "memory_search", arguments: JSON.stringify({ query: "离职 银行卡" }) },
          ],
        },
        { text: "好" },
      ]);
      const s: Settings = {
        ...settings,
        memory: {
          ...settings.memory,
          retrieval: { ...settings.memory.retrieval, softScope: soft },
        },
      };
      await runWith(context("qq:group:G1", "qq:user:ALICE", "离职 银行卡", s, alice), model, memory);
      const seen = JSON.stringify(model.requests);
      expect(seen).toContain("旅行");
      expect(seen).not.toContain("下个月要离职");
      expect(seen).not.toContain("4321");
    },
  );

  it("the person's own private chat gets all of them", async ({ expect }) => {
    const memory = new InMemoryMemory(items());
    const model = new ScriptedChatModel([{ text: "好" }]);
    await runWith(
      context("qq:private:ALICE", "qq:user:ALICE", "离职 银行卡", settings, alice),
      model,
      memory,
    );
    const seen = JSON.stringify(model.requests);
    expect(seen).toContain("下个月要离职");
    expect(seen).toContain("4321");
  });
});

describe("a cross-chat read never lands a private chat in a group", () => {
  const settings = withIdentity({
    chatDomains: { team: ["qq:group:G1", "qq:group:G2", "qq:private:MEMBER_OPENID"] },
  });
  const history = () =>
    new InMemoryHistory([
      hit("qq:private:MEMBER_OPENID", "私聊里的秘密计划", NOW - 3000, 1),
      hit("qq:private:SOMEONE", "别人私聊里的秘密计划", NOW - 2000, 2),
      hit("qq:group:G2", "二群的秘密计划", NOW - 1000, 3),
    ]);
  const read = (tool: string, chat: string) =>
    new ScriptedChatModel([
      {
        toolCalls: [
          {
            id: "h1",
            name: tool,
            arguments: JSON.stringify({ chat, ...(tool === "history_search" ? { query: "秘密计划" } : {}) }),
          },
        ],
      },
      { text: "好" },
    ]);
  /** A turn of `who` in `chat` saying `text`, over the domain's log, its model scripted. */
  const turn = (chat: string, who: string, text: string, model: ScriptedChatModel) =>
    runTurn(
      context(chat, who, text, settings, { account: who }),
      ports(model, new InMemoryMemory(), history()),
      registry(),
    );

  it.for([
    ["history_recent", ADMIN, "qq:private:SOMEONE"],
    ["history_search", ADMIN, "qq:private:SOMEONE"],
    ["history_recent", MEMBER, "qq:private:MEMBER_OPENID"],
    ["history_search", MEMBER, "qq:private:MEMBER_OPENID"],
  ] as const)("%s by %s from a group for %s is refused", async ([tool, who, target], { expect }) => {
    const model = read(tool, target);
    await turn("qq:group:G1", who, "看看", model);
    const [result] = toolResults(model);
    expect(result).toContain("私聊");
    expect(result).not.toContain("秘密计划");
  });

  it("a channel turn is refused too", async ({ expect }) => {
    const model = read("history_recent", "qq:private:SOMEONE");
    await turn("qq:channel:C1", ADMIN, "看看", model);
    expect(toolResults(model)[0]).not.toContain("秘密计划");
  });

  it("an admin in their own private chat reads another private chat", async ({ expect }) => {
    const model = read("history_recent", "qq:private:SOMEONE");
    await turn("qq:private:ADMIN_OPENID", ADMIN, "看看", model);
    expect(toolResults(model)[0]).toContain("别人私聊里的秘密计划");
  });

  it("a member in a group still reads another group of its domain", async ({ expect }) => {
    const model = read("history_search", "qq:group:G2");
    await turn("qq:group:G1", MEMBER, "看看", model);
    expect(toolResults(model)[0]).toContain("二群的秘密计划");
  });

  const findChat = () =>
    new ScriptedChatModel([
      { toolCalls: [{ id: "f1", name: "find_chat", arguments: "{}" }] },
      { text: "好" },
    ]);

  it("find_chat in a group lists no private chat of the domain", async ({ expect }) => {
    const model = findChat();
    await turn("qq:group:G1", MEMBER, "有哪些聊天", model);
    const [result] = toolResults(model);
    expect(result).toContain("qq:group:G2");
    expect(result).not.toContain("qq:private:");
  });

  it("find_chat in the member's own private chat lists the domain's chats", async ({ expect }) => {
    const model = findChat();
    await turn("qq:private:MEMBER_OPENID", MEMBER, "有哪些聊天", model);
    const [result] = toolResults(model);
    expect(result).toContain("qq:group:G2");
    expect(result).toContain("qq:private:MEMBER_OPENID（当前聊天）");
  });

  it("find_chat tells an admin in a group that private chats are read elsewhere", async ({ expect }) => {
    const model = findChat();
    await turn("qq:group:G1", ADMIN, "有哪些聊天", model);
    expect(toolResults(model)[0]).toContain("私聊只能在你与机器人的私聊里查看");
  });
});
