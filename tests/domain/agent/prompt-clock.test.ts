// The time the model is given, and the times and days it reads in recalled history and tool
// results, are the wall clock of `calendar.timeZone` with its offset — the clock the dashboard,
// the exports and the CLI show — so the bot's "昨天" and an export agree on a message's day.

import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import { DEFAULT_SETTINGS, type Settings } from "@src/domain/config/settings";
import { describe, it } from "vitest";
import { hit, InMemoryHistory } from "../../fakes/in-memory-history";
import { messageEvent } from "../../fakes/inbound";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { turnPorts } from "../../fakes/turn-ports";

const CHAT = "qq:group:G1";
/** 2026-12-02T16:30Z: 12-03 00:30 in Shanghai, 12-02 08:30 in Los Angeles. */
const MESSAGE = Date.parse("2026-12-02T16:30:00Z");

function context(text: string, timeZone: string): TurnContext {
  const event = messageEvent({ chat: CHAT, text });
  const settings: Settings = { ...DEFAULT_SETTINGS, calendar: { timeZone } };
  return {
    event,
    chat: event.chat,
    sender: event.sender,
    identity: null,
    text,
    recent: [],
    settings,
    now: MESSAGE,
  };
}

async function turn(timeZone: string) {
  const model = new ScriptedChatModel([
    { toolCalls: [{ id: "c1", name: "history_search", arguments: '{"query":"团建"}' }] },
    { text: "好的" },
  ]);
  const history = new InMemoryHistory([hit(CHAT, "团建定在周五", MESSAGE)]);
  const result = await runTurn(
    context("团建 是哪天", timeZone),
    turnPorts({ model, history }),
    defaultTurnRegistry(),
  );
  const system = model.requests[0]?.messages.find((m) => m.role === "system")?.content ?? "";
  const tool = model.requests[1]?.messages.find((m) => m.role === "tool")?.content ?? "";
  return { result, system, tool };
}

describe("the clock a turn gives the model", () => {
  it("is Shanghai's by default: 12-03 00:30 +08:00, a Thursday, in the prompt, the citation and the tool", async ({
    expect,
  }) => {
    const { result, system, tool } = await turn("Asia/Shanghai");
    expect(result.ok).toBe(true);
    expect(system).toContain("时间：2026-12-03 00:30 +08:00，星期四（Asia/Shanghai）");
    expect(system).toContain("聊天记录 2026-12-03");
    expect(system).not.toMatch(/2026-12-02T16:30|Z。/);
    expect(tool).toContain("[2026-12-03 00:30 +08:00] 小明: 团建定在周五");
  });

  it("follows calendar.timeZone west of UTC, where the same instant is still 12-02", async ({ expect }) => {
    const { system, tool } = await turn("America/Los_Angeles");
    expect(system).toContain("时间：2026-12-02 08:30 -08:00，星期三（America/Los_Angeles）");
    expect(system).toContain("聊天记录 2026-12-02");
    expect(tool).toContain("[2026-12-02 08:30 -08:00] 小明: 团建定在周五");
  });
});
