import { type Tool, toolOk } from "@src/domain/agent/tool";
import { runTurn, type TurnRegistry } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import { turnSearchQuery } from "@src/domain/agent/turn-query-rewrite";
import { ManualClock } from "@src/domain/kernel/clock";
import { REWRITE_PURPOSE } from "@src/domain/knowledge/query-rewrite";
import { dailySpendGate } from "@src/domain/spend/spend-gate";
import { describe, it } from "vitest";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { chatContext } from "../../support/turn-context";

const CHAT = "qq:group:G1";

/** A follow-up: the turn before asked what KeepAlive is. */
const context = (text: string): TurnContext =>
  chatContext(CHAT, text, {
    recent: [{ role: "user", name: "小明", text: "KeepAlive 是什么？", ts: TEST_NOW - 60_000 }],
  });

/** A tool that searches the way kb_search does and answers with the query it would search. */
const searched: string[] = [];
const probe: Tool = {
  spec: { name: "probe", description: "", parameters: { type: "object", properties: {} } },
  requiresAdmin: false,
  scope: "none",
  async run(_args, ctx, services) {
    const q = await turnSearchQuery(ctx, services, "那它的 max 呢？");
    searched.push(q.query);
    return toolOk(q.via);
  },
};
const registry: TurnRegistry = { commands: [], tools: [probe], context: [] };

const toolRound = { toolCalls: [{ id: "c1", name: "probe", arguments: "{}" }] };

function ports(model: ScriptedChatModel, caps: { chatDailyTokens: number | null }, withTimer = true) {
  const clock = new ManualClock(TEST_NOW);
  const spend = dailySpendGate({
    chatKey: CHAT,
    caps: { ...caps, globalDailyTokens: null },
    timeZone: "UTC",
    clock,
    unflushed: () => 0,
    ledger: { spent: async () => ({ chat: 0, global: 0 }) },
  });
  return turnPorts({
    model,
    clock,
    spend,
    ...(withTimer ? { after: () => new Promise<void>(() => {}) } : {}),
  });
}

describe("the follow-up rewrite inside a turn", () => {
  it("is one more model call of the turn: billed to the chat and returned with the turn's usage", async ({
    expect,
  }) => {
    searched.length = 0;
    const model = new ScriptedChatModel([toolRound, { text: "KeepAlive 的 max 属性" }, { text: "好的" }]);
    const result = await runTurn(context("问一下"), ports(model, { chatDailyTokens: null }), registry);
    if (!result.ok) throw new Error("expected a reply");
    expect(searched).toEqual(["KeepAlive 的 max 属性"]);
    expect(result.value.usage.map((u) => [u.purpose, u.chatKey, u.ok])).toEqual([
      ["turn", CHAT, true],
      [REWRITE_PURPOSE, CHAT, true],
      ["turn", CHAT, true],
    ]);
  });

  it("counts against the daily cap with the turn's own calls: over it, the fusion and no call", async ({
    expect,
  }) => {
    searched.length = 0;
    // The first round spends 15 tokens of 20; the rewrite would still be allowed, so cap at 15.
    const model = new ScriptedChatModel([toolRound, { text: "不该用到" }]);
    const result = await runTurn(context("问一下"), ports(model, { chatDailyTokens: 15 }), registry);
    if (!result.ok) throw new Error("expected a reply");
    expect(searched).toEqual(["KeepAlive 是什么？\n那它的 max 呢？"]);
    expect(model.requests).toHaveLength(1);
    expect(result.value.usage.map((u) => u.purpose)).toEqual(["turn"]);
  });

  it("without a timer (no deadline can be kept) the fusion is used", async ({ expect }) => {
    searched.length = 0;
    const model = new ScriptedChatModel([toolRound, { text: "好的" }]);
    const result = await runTurn(context("问一下"), ports(model, { chatDailyTokens: null }, false), registry);
    if (!result.ok) throw new Error("expected a reply");
    expect(searched).toEqual(["KeepAlive 是什么？\n那它的 max 呢？"]);
    expect(result.value.usage.map((u) => u.purpose)).toEqual(["turn", "turn"]);
  });
});
