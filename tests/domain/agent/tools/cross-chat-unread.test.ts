import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import { FanOutHistorySearch } from "@src/domain/history/fan-out-history-search";
import { silentLogger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";
import { FakeChatLogs } from "../../../fakes/fake-chat-logs";
import { MEMBER, withIdentity } from "../../../fakes/identity-settings";
import { messageEvent } from "../../../fakes/inbound";
import { ManualTimer, settle } from "../../../fakes/manual-timer";
import { ScriptedChatModel } from "../../../fakes/scripted-chat-model";
import { TEST_NOW, turnPorts } from "../../../fakes/turn-ports";
import { turnContext } from "../../../support/turn-context";

/** A domain of groups (the first is where the turn happens), read through the chats' own logs. */
function world(groups = 4) {
  const chats = Array.from({ length: groups }, (_, i) => `qq:group:G${i + 1}`);
  const logs = new FakeChatLogs();
  const timer = new ManualTimer();
  const history = new FanOutHistorySearch({ logs, after: timer.after });
  const settings = withIdentity({ chatDomains: { team: chats } });
  const event = messageEvent({
    chat: chats[0] as string,
    text: "查一下",
    sender: MEMBER.split(":")[2] as string,
  });
  const ctx: TurnContext = turnContext(event, { text: "查一下", settings, now: TEST_NOW });
  return { chats, logs, timer, history, ctx };
}

/**
 * The tool's answer when the model calls `tool` with `args`. Time moves (by the reads' budget)
 * only when nothing else can: a chat that never answers is waited for to the end of the budget.
 */
async function call(
  w: ReturnType<typeof world>,
  tool: string,
  args: Record<string, unknown>,
): Promise<string> {
  const model = new ScriptedChatModel([
    { toolCalls: [{ id: "t1", name: tool, arguments: JSON.stringify(args) }] },
    { text: "好" },
  ]);
  let done = false;
  const turn = runTurn(
    w.ctx,
    turnPorts({ model, history: w.history }),
    defaultTurnRegistry(silentLogger),
  ).finally(() => {
    done = true;
  });
  for (let i = 0; i < 20 && !done; i++) {
    await settle();
    if (!done) w.timer.advance(3000);
  }
  await turn;
  return String(model.requests[1]?.messages.find((m) => m.role === "tool")?.content);
}

describe("cross-chat tools say which chats they could not read", () => {
  it("search_chat_history counts a failed and a timed-out chat, and shows what it read", async ({
    expect,
  }) => {
    const w = world();
    const [g1, g2, g3, g4] = w.chats as [string, string, string, string];
    w.logs.say(g1, "一群 爬山");
    w.logs.say(g4, "四群 爬山");
    w.logs.broken.add(g2);
    w.logs.hanging.add(g3);
    const answer = await call(w, "search_chat_history", { query: "爬山" });
    expect(answer).toContain("一群 爬山");
    expect(answer).toContain("四群 爬山");
    expect(answer).toContain("（有 2 个聊天这次没有读到：1 个超时，1 个出错；结果可能不完整）");
  });

  it("recall_cross_chat says so too, also when it found nothing, and names the chats past its cap", async ({
    expect,
  }) => {
    const w = world(23);
    w.logs.broken.add(w.chats[1] as string);
    const answer = await call(w, "recall_cross_chat", { query: "露营" });
    expect(answer).toContain("其他聊天里没有找到相关内容。");
    // 22 other chats: 20 asked (one failed), 2 past the cap.
    expect(answer).toContain(
      "（有 3 个聊天这次没有读到：1 个出错，2 个超出一次能查的聊天数；结果可能不完整）",
    );
    // (The turn's own recall reads the turn's chat: not counted.)
    const others = w.logs.calls.map((c) => c.chatKey).filter((c) => c !== w.chats[0]);
    expect(new Set(others).size).toBe(20);
  });

  it("says nothing of the kind when every chat was read", async ({ expect }) => {
    const w = world();
    w.logs.say(w.chats[1] as string, "二群 火锅");
    const answer = await call(w, "recall_cross_chat", { query: "火锅" });
    expect(answer).toContain("二群 火锅");
    expect(answer).not.toContain("没有读到");
  });

  it.for([
    ["history_search", "broken", "出错"],
    ["history_recent", "hanging", "超时"],
  ] as const)(
    "%s of one chat that is %s is a tool error, not “no messages”",
    async ([tool, how, words], { expect }) => {
      const w = world();
      const target = w.chats[1] as string;
      w.logs.say(target, "二群 火锅");
      w.logs[how].add(target);
      const answer = await call(w, tool, { query: "火锅", chat: target });
      expect(answer).toBe(
        `这次没有读到聊天 ${target} 的消息记录（${words}），这不代表那里没有消息；可以稍后再试。`,
      );
    },
  );
});

describe("the reader each chat object gets is the turn's own chat", () => {
  it("cross-chat and targeted reads carry the turn's chat, so another chat's marked words stay there", async ({
    expect,
  }) => {
    const w = world(3);
    const [g1, g2, g3] = w.chats as [string, string, string];
    w.logs.say(g2, "团建 二群的私事", { marked: true });
    w.logs.say(g2, "团建 二群公开的");
    w.logs.say(g3, "团建 三群的");
    const across = await call(w, "search_chat_history", { query: "团建" });
    const recall = await call(w, "recall_cross_chat", { query: "团建" });
    const targeted = await call(w, "history_search", { query: "团建", chat: g2 });
    const recent = await call(w, "history_recent", { chat: g2 });
    for (const answer of [across, recall, targeted, recent]) {
      expect(answer).toContain("二群公开的");
      expect(answer).not.toContain("私事");
    }
    expect(w.logs.calls.filter((c) => c.method !== "senders").length).toBeGreaterThan(0);
    for (const c of w.logs.calls.filter((x) => x.method !== "senders")) expect(c.reader).toBe(g1);
  });
});
