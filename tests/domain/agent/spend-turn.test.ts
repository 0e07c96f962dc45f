import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import { ManualClock } from "@src/domain/kernel/clock";
import { dailySpendGate } from "@src/domain/spend/spend-gate";
import { describe, it } from "vitest";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { chatContext } from "../../support/turn-context";

const CHAT = "qq:group:G1";
const caps = { chatDailyTokens: 20, globalDailyTokens: null };

const context = (text: string): TurnContext => chatContext(CHAT, text);

function ports(model: ScriptedChatModel, spentBefore: number) {
  const clock = new ManualClock(TEST_NOW);
  let reads = 0;
  const spend = dailySpendGate({
    chatKey: CHAT,
    caps,
    timeZone: "UTC",
    clock,
    unflushed: () => 0,
    ledger: {
      spent: async () => {
        reads++;
        return { chat: spentBefore, global: spentBefore };
      },
    },
  });
  return { ports: turnPorts({ model, clock, spend }), reads: () => reads };
}

describe("a turn under spend caps", () => {
  it("over the cap: a brief reply, no model call, the refusal audited", async ({ expect }) => {
    const model = new ScriptedChatModel([{ text: "不该出现" }]);
    const p = ports(model, 20);
    const result = await runTurn(context("你好"), p.ports, defaultTurnRegistry());
    expect(model.requests).toHaveLength(0);
    if (!result.ok) throw new Error("expected a reply");
    expect(result.value.replies).toEqual([expect.stringContaining("今天的模型用量已达上限（20 tokens）")]);
    expect(result.value.usage).toEqual([]);
    expect(result.value.audit).toEqual([
      expect.objectContaining({
        action: "spend.capped",
        outcome: "refused",
        target: CHAT,
        detail: expect.objectContaining({ purpose: "turn", scope: "chat", used: 20, cap: 20, round: 0 }),
      }),
    ]);
  });

  it("commands still answer over the cap", async ({ expect }) => {
    const model = new ScriptedChatModel([]);
    const p = ports(model, 1_000);
    const result = await runTurn(context("/ping"), p.ports, defaultTurnRegistry());
    expect(result).toMatchObject({ ok: true, value: { replies: ["pong"] } });
    expect(p.reads()).toBe(0);
  });

  it("stops between tool rounds once the turn's own calls reach the cap, reading the spend once", async ({
    expect,
  }) => {
    // Every scripted call spends 15 tokens: the first is allowed (5 + 0 < 20), the second
    // would start at 5 + 15 = 20.
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: "c1", name: "history_recent", arguments: "{}" }] },
      { text: "不该出现" },
    ]);
    const p = ports(model, 5);
    const result = await runTurn(context("查一下"), p.ports, defaultTurnRegistry());
    expect(model.requests).toHaveLength(1);
    expect(p.reads()).toBe(1);
    if (!result.ok) throw new Error("expected a reply");
    expect(result.value.usage).toHaveLength(1);
    expect(result.value.replies[0]).toContain("已达上限");
    expect(result.value.audit.find((a) => a.action === "spend.capped")?.detail).toMatchObject({
      used: 20,
      round: 1,
    });
  });
});
