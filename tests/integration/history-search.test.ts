import { env } from "cloudflare:workers";
import { describe, it } from "vitest";
import { D1MessageLog } from "../../src/adapters/d1/d1-message-log";
import { D1MessageStore } from "../../src/adapters/d1/d1-message-retrieval";
import { openDatabase } from "../../src/adapters/d1/database";
import { historySearch } from "../../src/composition/history-search";
import { defaultTurnRegistry } from "../../src/domain/agent/default-turn-registry";
import { runTurn } from "../../src/domain/agent/turn";
import type { TurnContext } from "../../src/domain/agent/turn-context";
import { DEFAULT_SETTINGS } from "../../src/domain/config/settings";
import { outboundRecord } from "../../src/domain/history/message-record";
import { messageEvent } from "../fakes/inbound";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { turnPorts } from "../fakes/turn-ports";

const T0 = 1_700_000_000_000;
const MINUTE = 60_000;

type Line = { readonly chat: string; readonly id: string; readonly minute: number; readonly text: string };

/** Writes the lines in the given order (so seq numbers interleave chats), then the recalls. */
async function seed(lines: readonly Line[], recalled: readonly Line[] = []): Promise<void> {
  const log = new D1MessageLog(openDatabase(env.DB));
  await log.flush({
    messages: lines.map((l) =>
      outboundRecord({
        transport: "qq",
        chatKey: l.chat,
        messageId: l.id,
        ts: T0 + l.minute * MINUTE,
        text: l.text,
        botName: "小明",
      }),
    ),
    recalls: recalled.map((l) => ({ transport: "qq", chatKey: l.chat, messageId: l.id })),
    chats: [],
    usage: [],
    audit: [],
  });
}

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
  it("brings the turns around a hit as context, in the chat's own order", async ({ expect }) => {
    const [a, b] = [newChat(), newChat()];
    await seed(interleaved(a, b));
    const hits = await history().search({ chatKey: a, text: "海边烧烤", limit: 5 });
    expect(texts(hits, "hit")).toEqual(["去海边烧烤"]);
    expect(texts(hits, "context").sort()).toEqual(
      ["周五去哪里团建？", "早上好", "好啊", "记得带防晒"].sort(),
    );
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
    const hits = await history().search({ chatKey: a, text: "烧烤", limit: 10 });
    expect(texts(hits, "hit")).toEqual(["A 说烧烤"]);
    expect(texts(hits, "context")).toEqual(["A 的下一条"]);
    const store = new D1MessageStore(env.DB);
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
    const hits = await history().search({ chatKey: a, text: "烧烤", limit: 5 });
    expect(texts(hits, "hit")).toEqual(["去海边烧烤"]);
    // "好啊" is skipped: the next turns of the chat that still exist take its place.
    expect(texts(hits, "context").sort()).toEqual(
      ["周五去哪里团建？", "早上好", "收到", "记得带防晒"].sort(),
    );
    expect(hits.map((h) => h.text)).not.toContain("晚上也去烧烤");
  });

  it.for([['"烧烤" NEAR( -海边:*'], ["烧烤) OR (*"], ["AND 烧烤 NOT"]])(
    "searches FTS syntax as text: %s",
    async ([query], { expect }) => {
      const [a, b] = [newChat(), newChat()];
      await seed(interleaved(a, b));
      const hits = await history().search({ chatKey: a, text: query ?? "", limit: 5 });
      expect(texts(hits, "hit")).toEqual(["去海边烧烤"]);
    },
  );

  it.for([['"*:('], ["  "], ["()"]])(
    "answers [] for text with nothing searchable: %j",
    async ([query], { expect }) => {
      const [a, b] = [newChat(), newChat()];
      await seed(interleaved(a, b));
      expect(await history().search({ chatKey: a, text: query ?? "", limit: 5 })).toEqual([]);
    },
  );

  it("honours `before`: later messages are neither hits nor context", async ({ expect }) => {
    const [a, b] = [newChat(), newChat()];
    await seed([...interleaved(a, b), { chat: a, id: "late", minute: 30, text: "又去烧烤了" }]);
    // Up to and excluding "记得带防晒" (minute 8).
    const hits = await history().search({ chatKey: a, text: "烧烤", limit: 5, before: T0 + 8 * MINUTE });
    expect(texts(hits, "hit")).toEqual(["去海边烧烤"]);
    expect(texts(hits, "context").sort()).toEqual(["周五去哪里团建？", "早上好", "好啊"].sort());
    const all = await history().search({ chatKey: a, text: "烧烤", limit: 5 });
    expect(texts(all, "hit").sort()).toEqual(["去海边烧烤", "又去烧烤了"].sort());
  });

  it("shows context turns apart from the matches in the history_search answer", async ({ expect }) => {
    const [a, b] = [newChat(), newChat()];
    await seed(interleaved(a, b));
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: "c1", name: "history_search", arguments: '{"query":"海边烧烤"}' }] },
      { text: "好" },
    ]);
    const event = messageEvent({ chat: a, text: "上次团建去哪" });
    const ctx: TurnContext = {
      event,
      chat: event.chat,
      sender: event.sender,
      identity: null,
      text: "上次团建去哪",
      recent: [],
      settings: DEFAULT_SETTINGS,
      now: T0 + 60 * MINUTE,
    };
    const result = await runTurn(ctx, turnPorts({ model, history: history() }), defaultTurnRegistry());
    expect(result.ok).toBe(true);
    const answer = String(model.requests[1]?.messages.find((m) => m.role === "tool")?.content);
    const lines = answer.split("\n");
    expect(lines[0]).toContain("去海边烧烤");
    expect(lines[1]).toBe("（命中消息前后的上下文）");
    expect(lines.slice(2).map((l) => l.replace(/^ {2}\[[^\]]+\] 我: /, ""))).toEqual([
      "早上好",
      "周五去哪里团建？",
      "好啊",
      "记得带防晒",
    ]);
    expect(answer).not.toContain("别的群");
  });
});
