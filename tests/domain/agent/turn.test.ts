import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { TurnPorts } from "@src/domain/agent/turn-services";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { describe, it } from "vitest";
import { hit, InMemoryHistory } from "../../fakes/in-memory-history";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { turnPorts } from "../../fakes/turn-ports";
import { chatContext } from "../../support/turn-context";

const CHAT = "qq:group:G1";

const context = (text: string, overrides: Partial<TurnContext> = {}): TurnContext =>
  chatContext(CHAT, text, overrides);

function services(model: TurnPorts["model"], history = new InMemoryHistory()): TurnPorts {
  return turnPorts({ model, history });
}

describe("runTurn", () => {
  it("answers commands without calling the model", async ({ expect }) => {
    const model = new ScriptedChatModel([]);
    const result = await runTurn(context("/ping"), services(model), defaultTurnRegistry());
    expect(result).toMatchObject({ ok: true, value: { replies: ["pong"], command: "ping", usage: [] } });
    expect(model.requests).toHaveLength(0);
  });

  it("lists every registered command in /help and refuses unknown ones", async ({ expect }) => {
    const help = await runTurn(context("/help"), services(new OfflineChatModel()), defaultTurnRegistry());
    expect(help.ok && help.value.replies[0]).toContain("/ping");
    const unknown = await runTurn(context("/nope"), services(new OfflineChatModel()), defaultTurnRegistry());
    expect(unknown.ok && unknown.value.replies[0]).toContain("未知命令 /nope");
  });

  it("puts recalled history of the same chat into the prompt and the recalled list", async ({ expect }) => {
    const model = new ScriptedChatModel([{ text: "周五" }]);
    const history = new InMemoryHistory([hit(CHAT, "团建定在周五"), hit("qq:group:OTHER", "团建定在周六")]);
    const result = await runTurn(context("团建 是哪天"), services(model, history), defaultTurnRegistry());
    expect(result.ok && result.value.replies).toEqual(["周五"]);
    const system = model.requests[0]?.messages[0]?.content ?? "";
    expect(system).toContain("团建定在周五");
    expect(system).not.toContain("周六");
    expect(model.requests[0]?.recalled?.map((r) => r.text)).toEqual(["小明: 团建定在周五"]);
  });

  it("runs tool calls and feeds their results back to the model", async ({ expect }) => {
    const history = new InMemoryHistory([hit(CHAT, "密码提示是猫的名字")]);
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: "c1", name: "history_search", arguments: '{"query":"猫"}' }] },
      { text: "找到了" },
    ]);
    const result = await runTurn(
      context("上次说的提示是什么"),
      services(model, history),
      defaultTurnRegistry(),
    );
    expect(result.ok && result.value.replies).toEqual(["找到了"]);
    const toolMessage = model.requests[1]?.messages.find((m) => m.role === "tool");
    expect(toolMessage?.content).toContain("密码提示是猫的名字");
    expect(result.ok && result.value.usage).toHaveLength(2);
  });

  it("stops offering tools after the configured rounds", async ({ expect }) => {
    const loop = { toolCalls: [{ id: "c", name: "history_recent", arguments: "{}" }], text: "最终" };
    const model = new ScriptedChatModel([loop, loop, loop, loop, loop]);
    const settings = { ...DEFAULT_SETTINGS, turn: { ...DEFAULT_SETTINGS.turn, maxToolRounds: 2 } };
    const result = await runTurn(context("hi", { settings }), services(model), defaultTurnRegistry());
    expect(result.ok && result.value.replies).toEqual(["最终"]);
    expect(model.requests).toHaveLength(3);
    expect(model.requests[2]?.tools).toBeUndefined();
  });

  it("reports a model failure with its usage record", async ({ expect }) => {
    const model = new ScriptedChatModel([{ error: { kind: "unavailable", message: "down" } }]);
    const result = await runTurn(context("hi"), services(model), defaultTurnRegistry());
    expect(result).toMatchObject({ ok: false, error: { kind: "model", error: { kind: "unavailable" } } });
    expect(!result.ok && result.error.usage[0]).toMatchObject({
      ok: false,
      errorKind: "unavailable",
      chatKey: CHAT,
    });
  });

  it("lets a guard refuse a tool call", async ({ expect }) => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: "c1", name: "history_recent", arguments: "{}" }] },
      { text: "ok" },
    ]);
    const registry = {
      ...defaultTurnRegistry(),
      guard: async () => ({ allowed: false as const, reason: "not allowed here" }),
    };
    await runTurn(context("hi"), services(model), registry);
    expect(model.requests[1]?.messages.find((m) => m.role === "tool")?.content).toBe("not allowed here");
  });
});

describe("OfflineChatModel", () => {
  it("digests what the turn recalled", async ({ expect }) => {
    const history = new InMemoryHistory([hit(CHAT, "团建定在周五")]);
    const result = await runTurn(
      context("团建"),
      services(new OfflineChatModel(), history),
      defaultTurnRegistry(),
    );
    expect(result.ok && result.value.replies[0]).toContain("团建定在周五");
  });

  it("says it is offline when nothing was recalled", async ({ expect }) => {
    const result = await runTurn(context("你好"), services(new OfflineChatModel()), defaultTurnRegistry());
    expect(result.ok && result.value.replies[0]).toContain("离线模式");
  });
});
