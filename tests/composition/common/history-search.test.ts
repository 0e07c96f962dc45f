import { env } from "cloudflare:workers";
import { D1MessageStore } from "@src/adapters/d1/d1-message-store";
import { historySearch } from "@src/composition/common/history-search";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { describe, it } from "vitest";
import { messageEvent } from "../../fakes/inbound";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { turnPorts } from "../../fakes/turn-ports";
import { type Line, MINUTE, seedLines as seed, T0 } from "../../support/message-lines";
import { turnContext } from "../../support/turn-context";

const newChat = () => `qq:group:${crypto.randomUUID()}`;
const history = () => historySearch(env);
const texts = (hits: readonly { text: string; via?: string }[], via: "hit" | "context") =>
  hits.filter((h) => h.via === via).map((h) => h.text);

/** Chat A's conversation with chat B's messages written between its turns. */
function interleaved(a: string, b: string): Line[] {
  const own = ["早上好", "周五去哪里团建？", "去海边烧烤", "好啊", "记得带防晒", "收到", "晚安"];
  return own.flatMap((text, i) => [
    { chat: a, id: `a${i}`, minute: i * 2, text },
    { chat: b, id: `b${i}`, minute: i * 2 + 1, text: `别的群的烧烤消息 ${i}` },
  ]);
}

describe("history search through the retrieval pipeline", () => {
  it("matches a turn and the turns next to it in its session, and brings their neighbours as context", async ({
    expect,
  }) => {
    const [a, b] = [newChat(), newChat()];
    await seed(interleaved(a, b));
    const hits = await history().search({ chatKey: a, reader: a, text: "海边烧烤", limit: 5 });
    // The words are said once; the question before and the reply after match through their
    // turn windows (a question's answer is often the turn next to its words).
    expect(texts(hits, "hit").sort()).toEqual(["周五去哪里团建？", "去海边烧烤", "好啊"].sort());
    const first = hits[0]?.text;
    const order = ["早上好", "周五去哪里团建？", "去海边烧烤", "好啊", "记得带防晒", "收到", "晚安"];
    const at = order.indexOf(first ?? "");
    // The first match's two turns on each side that are not matches themselves.
    const expected = order.filter(
      (t, i) => Math.abs(i - at) <= 2 && i !== at && !texts(hits, "hit").includes(t),
    );
    expect(texts(hits, "context").sort()).toEqual(expected.sort());
    expect(hits.every((h) => h.chatKey === a)).toBe(true);
  });

  it("never returns another chat's messages, not even as a neighbour at the chat's edge", async ({
    expect,
  }) => {
    const [a, b] = [newChat(), newChat()];
    // A's only messages sit between B's, in time and in seq.
    await seed([
      { chat: b, id: "b0", minute: 0, text: "B 的第一条烧烤" },
      { chat: b, id: "b1", minute: 1, text: "B 的第二条" },
      { chat: a, id: "a0", minute: 2, text: "A 说烧烤" },
      { chat: b, id: "b2", minute: 3, text: "B 的第三条烧烤" },
      { chat: a, id: "a1", minute: 4, text: "A 的下一条" },
      { chat: b, id: "b3", minute: 5, text: "B 的第四条" },
    ]);
    const hits = await history().search({ chatKey: a, reader: a, text: "烧烤", limit: 10 });
    // A's second message matches through its window (A's turn before it), never through B's.
    expect(texts(hits, "hit").sort()).toEqual(["A 说烧烤", "A 的下一条"].sort());
    expect(texts(hits, "context")).toEqual([]);
    expect(await history().search({ chatKey: a, reader: a, text: "第三条", limit: 10 })).toEqual([]);
    const store = new D1MessageStore(env.DB, { reader: a });
    const [hit] = await store.load([`m_${hits[0]?.seq}`]);
    const around = await store.neighbours([hit?.nodeId ?? ""], 3);
    expect(around.map((n) => n.rawText)).toEqual(["A 的下一条"]);
    expect(around.every((n) => n.scopeId === a)).toBe(true);
  });

  it("never returns a recalled message, as a hit or as a neighbour", async ({ expect }) => {
    const [a, b] = [newChat(), newChat()];
    const lines = interleaved(a, b);
    const late = { chat: a, id: "late", minute: 20, text: "晚上也去烧烤" };
    const recalled = [...lines.filter((l) => l.text === "好啊" || l.text === "晚安"), late];
    await seed([...lines, late], recalled);
    const hits = await history().search({ chatKey: a, reader: a, text: "烧烤", limit: 5 });
    // "好啊" is skipped: the next turn of the chat that still exists is the match's neighbour.
    expect(texts(hits, "hit").sort()).toEqual(["周五去哪里团建？", "去海边烧烤", "记得带防晒"].sort());
    const shown = hits.map((h) => h.text);
    for (const gone of ["好啊", "晚安", "晚上也去烧烤"]) expect(shown).not.toContain(gone);
    // No turn window keeps a recalled message's words.
    expect(await history().search({ chatKey: a, reader: a, text: "好啊", limit: 5 })).toEqual([]);
    expect(await history().search({ chatKey: a, reader: a, text: "晚安", limit: 5 })).toEqual([]);
  });

  it.for([['"烧烤" NEAR( -海边:*'], ["烧烤) OR (*"], ["AND 烧烤 NOT"]])(
    "searches FTS syntax as text: %s",
    async ([query], { expect }) => {
      const [a, b] = [newChat(), newChat()];
      await seed(interleaved(a, b));
      const hits = await history().search({ chatKey: a, reader: a, text: query ?? "", limit: 5 });
      expect(texts(hits, "hit")).toContain("去海边烧烤");
    },
  );

  it.for([['"*:('], ["  "], ["()"]])(
    "answers [] for text with nothing searchable: %j",
    async ([query], { expect }) => {
      const [a, b] = [newChat(), newChat()];
      await seed(interleaved(a, b));
      expect(await history().search({ chatKey: a, reader: a, text: query ?? "", limit: 5 })).toEqual([]);
    },
  );

  it("honours `before`: later messages are neither hits nor context", async ({ expect }) => {
    const [a, b] = [newChat(), newChat()];
    await seed([...interleaved(a, b), { chat: a, id: "late", minute: 30, text: "又去烧烤了" }]);
    // Up to and excluding "记得带防晒" (minute 8).
    const hits = await history().search({
      chatKey: a,
      reader: a,
      text: "烧烤",
      limit: 5,
      before: T0 + 8 * MINUTE,
    });
    expect(texts(hits, "hit").sort()).toEqual(["周五去哪里团建？", "去海边烧烤", "好啊"].sort());
    const early = ["早上好", "周五去哪里团建？", "去海边烧烤", "好啊"];
    expect(hits.every((h) => early.includes(h.text))).toBe(true);
    const all = await history().search({ chatKey: a, reader: a, text: "烧烤", limit: 5 });
    // "又去烧烤了" is 16 minutes after "晚安": the same session, so "晚安" matches through it.
    expect(texts(all, "hit")).toContain("又去烧烤了");
  });

  it("shows context turns apart from the matches in the history_search answer", async ({ expect }) => {
    const [a, b] = [newChat(), newChat()];
    await seed(interleaved(a, b));
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: "c1", name: "history_search", arguments: '{"query":"海边烧烤"}' }] },
      { text: "好" },
    ]);
    const event = messageEvent({ chat: a, text: "上次团建去哪" });
    const ctx: TurnContext = turnContext(event, {
      text: "上次团建去哪",
      settings: DEFAULT_SETTINGS,
      now: T0 + 60 * MINUTE,
    });
    const result = await runTurn(ctx, turnPorts({ model, history: history() }), defaultTurnRegistry());
    expect(result.ok).toBe(true);
    const answer = String(model.requests[1]?.messages.find((m) => m.role === "tool")?.content);
    const lines = answer.split("\n");
    const header = lines.indexOf("（命中消息前后的上下文）");
    expect(header).toBeGreaterThan(0);
    // The matches first (the turn that says the words among them), the context turns apart.
    expect(lines.slice(0, header).join("\n")).toContain("去海边烧烤");
    expect(lines.slice(header + 1).length).toBeGreaterThan(0);
    for (const l of lines.slice(header + 1)) expect(l).toMatch(/^ {2}\[[^\]]+\] 我: /);
    expect(answer).not.toContain("别的群");
  });
});
