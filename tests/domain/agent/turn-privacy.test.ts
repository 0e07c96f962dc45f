import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import type { PreparedPrompt } from "@src/domain/agent/prompt";
import type { Tool } from "@src/domain/agent/tool";
import { runTurn } from "@src/domain/agent/turn";
import { itemHolds, promptHolds, recentHolds, toolHolds } from "@src/domain/agent/turn-privacy";
import type { HistoryHit } from "@src/domain/history/history-search-port";
import type { RecalledItem } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { InMemoryHistory } from "../../fakes/in-memory-history";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { chatContext } from "../../support/turn-context";

// A group's own turns read its marked messages; whatever the turn held that must stay in the
// chat, its replies may repeat (docs/invariants.md#one-read-gate). What cannot say is held.
const memory = (sensitivity: string): RecalledItem => ({
  source: "memory",
  text: "t",
  citation: "c",
  meta: { nodeId: "m_1", scope: "chat:qq:group:G1", kind: "fact", sensitivity, score: 1 },
});
const GROUP = "qq:group:G1";

describe("what a turn holds that must stay in its chat", () => {
  it.for([
    ["a public memory item", memory("public"), false],
    ["a private memory item", memory("private"), true],
    ["a secret-like memory item", memory("secret_like"), true],
    ["a marked message", { source: "history", text: "t", citation: "c", marked: true }, true],
    ["an unmarked message", { source: "history", text: "t", citation: "c", marked: false }, false],
    ["a message a reader did not say", { source: "history", text: "t", citation: "c" }, true],
    ["a knowledge passage", { source: "knowledge", text: "t", citation: "c" }, false],
    ["an item of a source not known", { source: "new-source", text: "t", citation: "c" }, true],
  ] as const)("reads %s as held: %s", ([, item, held], { expect }) => {
    expect(itemHolds(item)).toBe(held);
  });

  it("reads a person's recent turn by its words and the bot's by what its turn held", ({ expect }) => {
    expect(recentHolds({ role: "user", name: "A", text: "我要搬家了，别外传", ts: 1 })).toBe(true);
    expect(recentHolds({ role: "user", name: "A", text: "这个别说出去哈", ts: 1 })).toBe(true);
    expect(recentHolds({ role: "user", name: "A", text: "周末爬山", ts: 1 })).toBe(false);
    expect(recentHolds({ role: "assistant", name: null, text: "好的", ts: 1, held: true })).toBe(true);
    expect(recentHolds({ role: "assistant", name: null, text: "好的", ts: 1 })).toBe(false);
  });

  it("takes a summary or a profile that may hold private items as held", ({ expect }) => {
    const prompt = (heldPrivate: boolean): PreparedPrompt => ({
      messages: [],
      mandatory: {
        persona: "",
        profile: null,
        pinned: [],
        summary: null,
        recent: [],
        tokens: 0,
        heldPrivate,
      },
      sections: [],
      tokens: 0,
    });
    expect(promptHolds("你好", prompt(false))).toBe(false);
    expect(promptHolds("你好", prompt(true))).toBe(true);
    expect(promptHolds("我下个月手术，别告诉别人", prompt(false))).toBe(true);
  });

  it("takes a tool's result as it says; one that reads nothing holds nothing; else held", ({ expect }) => {
    const tool = (reads?: "nothing" | "target") => ({ reads }) as unknown as Tool;
    expect(toolHolds(tool(), { ok: true, content: "x", marked: false })).toBe(false);
    expect(toolHolds(tool("nothing"), { ok: true, content: "x" })).toBe(false);
    expect(toolHolds(tool("target"), { ok: true, content: "x" })).toBe(true);
    expect(toolHolds(tool(), { ok: true, content: "x" })).toBe(true);
    expect(toolHolds(tool(), { ok: false, content: "拒绝" })).toBe(false);
  });
});

describe("a turn says whether it held words that must stay in its chat", () => {
  const hit = (text: string, marked?: boolean): HistoryHit => ({
    seq: 1,
    chatKey: GROUP,
    messageId: "m1",
    ts: TEST_NOW - 60_000,
    nick: "A",
    text,
    direction: "in",
    rank: 1,
    ...(marked === undefined ? {} : { marked }),
  });

  async function held(text: string, hits: HistoryHit[], calls: { name: string; args: object }[] = []) {
    const model = new ScriptedChatModel([
      ...(calls.length > 0
        ? [
            {
              toolCalls: calls.map((c, i) => ({
                id: `c${i}`,
                name: c.name,
                arguments: JSON.stringify(c.args),
              })),
            },
          ]
        : []),
      { text: "好" },
    ]);
    const ports = turnPorts({ model, history: new InMemoryHistory(hits) });
    const result = await runTurn(chatContext(GROUP, text), ports, defaultTurnRegistry());
    if (!result.ok) throw new Error("turn failed");
    return result.value.heldPrivate;
  }

  it("by the history it recalled, marked or not", async ({ expect }) => {
    expect(await held("爬山 几点", [hit("爬山 八点集合", false)])).toBe(false);
    expect(await held("手术 几号", [hit("手术 下个月", true)])).toBe(true);
    expect(await held("手术 几号", [hit("手术 下个月")])).toBe(true);
  });

  it("by what its tools showed", async ({ expect }) => {
    const search = { name: "history_search", args: { query: "手术" } };
    expect(await held("查一下", [hit("手术 下个月", true)], [search])).toBe(true);
    expect(await held("查一下", [hit("手术 下个月", false)], [search])).toBe(false);
  });

  it("by its message's mark in the chat's log: its speaker asked for privacy just before", async ({
    expect,
  }) => {
    const model = new ScriptedChatModel([{ text: "好" }, { text: "好" }]);
    const ports = turnPorts({ model, history: new InMemoryHistory([]) });
    const turn = (nearRequest: boolean) =>
      runTurn({ ...chatContext(GROUP, "我下个月离职了"), nearRequest }, ports, defaultTurnRegistry());
    const [marked, open] = [await turn(true), await turn(false)];
    expect(marked.ok && marked.value.heldPrivate).toBe(true);
    expect(open.ok && open.value.heldPrivate).toBe(false);
  });

  it("for a command's answer always", async ({ expect }) => {
    expect(await held("/help", [])).toBe(true);
  });
});
