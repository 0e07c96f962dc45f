import { UnreadError } from "@src/domain/history/fan-out";
import { FanOutHistorySearch } from "@src/domain/history/fan-out-history-search";
import { interleaveChats } from "@src/domain/history/fan-out-interleave";
import type { HistoryHit } from "@src/domain/history/history-search-port";
import type { LogFields } from "@src/domain/kernel/logger";
import { describe, expect, it } from "vitest";
import { FakeChatLogs } from "../../fakes/fake-chat-logs";
import { ManualTimer, settle } from "../../fakes/manual-timer";

const HERE = "qq:group:HERE";
const A = "qq:group:A";
const B = "qq:group:B";

function world(limits = { maxChats: 100, concurrency: 8, budgetMs: 3000 }) {
  const logs = new FakeChatLogs();
  const timer = new ManualTimer();
  const warnings: LogFields[] = [];
  const logger = { info() {}, error() {}, warn: (_: string, f?: LogFields) => void warnings.push(f ?? {}) };
  const history = new FanOutHistorySearch({ logs, after: timer.after, limits, logger });
  return { logs, timer, history, warnings };
}

/** Each chat's three messages, numbered 1 to 3 in both: match, small talk, match. */
function twoChats(logs: FakeChatLogs): void {
  for (const chat of [A, B]) {
    const tag = chat.slice(-1);
    logs.say(chat, `火锅 ${tag}1`);
    logs.say(chat, `闲聊 ${tag}2`);
    logs.say(chat, `火锅 ${tag}3`);
  }
}

const shown = (hits: readonly HistoryHit[]) =>
  hits.map((h) => `${h.text.slice(-2)}${h.via === "context" ? "~" : ""}`);

describe("FanOutHistorySearch over the chats' own logs", () => {
  it("reads one chat through that chat's reader only, with the turn's chat as reader", async () => {
    const { logs, history } = world();
    twoChats(logs);
    const hits = await history.search({ chatKey: A, reader: HERE, text: "火锅", limit: 5 });
    expect(shown(hits)).toEqual(["A1", "A2~", "A3"]);
    const recent = await history.recent({ chatKey: B, reader: HERE, limit: 2 });
    expect(recent.map((h) => h.text)).toEqual(["火锅 B3", "闲聊 B2"]);
    expect(logs.calls).toEqual([
      { chatKey: A, method: "search", reader: HERE },
      { chatKey: B, method: "recent", reader: HERE },
    ]);
  });

  it("interleaves the chats round-robin with their context, keyed by chat and seq, not seq alone", async () => {
    const { logs, history } = world();
    twoChats(logs);
    const all = await history.searchAcross({ chatKeys: [A, B], reader: HERE, text: "火锅", limit: 10 });
    // Both chats have messages 1, 2 and 3: none of B's is taken for A's.
    expect(shown(all)).toEqual(["A1", "A2~", "B1", "B2~", "A3", "B3"]);
    const capped = await history.searchAcross({ chatKeys: [A, B], reader: HERE, text: "火锅", limit: 3 });
    expect(shown(capped)).toEqual(["A1", "A2~", "B1", "B2~", "A3"]);
  });

  it("says which chats it could not read: failed, timed out, past the cap", async () => {
    const { logs, timer, history, warnings } = world({ maxChats: 3, concurrency: 8, budgetMs: 300 });
    twoChats(logs);
    logs.broken.add(B);
    logs.hanging.add("qq:group:SLOW");
    const pending = history.searchAcrossChats({
      chatKeys: [A, B, "qq:group:SLOW", "qq:group:FOURTH"],
      reader: HERE,
      text: "火锅",
      limit: 10,
    });
    await settle();
    timer.advance(300);
    const { hits, unread } = await pending;
    expect(shown(hits)).toEqual(["A1", "A2~", "A3"]);
    expect(unread).toEqual([
      { chatKey: B, reason: "failed" },
      { chatKey: "qq:group:SLOW", reason: "timeout" },
      { chatKey: "qq:group:FOURTH", reason: "over-cap" },
    ]);
    expect(logs.calls.map((c) => c.chatKey)).not.toContain("qq:group:FOURTH");
    expect(warnings.map((w) => [w.chat, w.reason])).toEqual([
      [B, "failed"],
      ["qq:group:SLOW", "timeout"],
      ["qq:group:FOURTH", "over-cap"],
    ]);
    expect(String(warnings[0]?.error)).toContain("failed");
  });

  it("turns a one-chat read that fails or times out into an UnreadError, never an empty answer", async () => {
    const { logs, timer, history } = world();
    logs.broken.add(A);
    logs.hanging.add(B);
    await expect(history.search({ chatKey: A, reader: HERE, text: "x", limit: 5 })).rejects.toMatchObject({
      name: "UnreadError",
      key: A,
      reason: "failed",
    });
    const slow = history.recent({ chatKey: B, reader: HERE, limit: 5 });
    await settle();
    timer.advance(3000);
    const error = await slow.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadError);
    expect(error).toMatchObject({ key: B, reason: "timeout" });
  });

  it("passes the reader unchanged to every chat, so a message marked private stays in its chat", async () => {
    const { logs, history } = world();
    logs.say(A, "团建 在 A 说的");
    logs.say(B, "团建 B 的私事", { marked: true });
    logs.say(B, "团建 B 公开的");
    const fromA = await history.searchAcross({ chatKeys: [A, B], reader: A, text: "团建", limit: 10 });
    expect(fromA.map((h) => h.text)).toEqual(["团建 在 A 说的", "团建 B 公开的"]);
    expect(logs.calls.map((c) => c.reader)).toEqual([A, A]);
    // The chat itself reads its own marked message: the gate is the object's, by the reader.
    const fromB = await history.search({ chatKey: B, reader: B, text: "团建", limit: 10 });
    expect(fromB.map((h) => h.text)).toContain("团建 B 的私事");
  });

  it("lists the chats' senders in turn and reads each chat with eachChat", async () => {
    const { logs, history } = world();
    logs.say(A, "1", { nick: "甲" });
    logs.say(A, "2", { nick: "乙" });
    logs.say(B, "3", { nick: "丙" });
    logs.broken.add("qq:group:GONE");
    expect(await history.senders([A, B, "qq:group:GONE"])).toEqual([
      { chatKey: A, nick: "乙" },
      { chatKey: B, nick: "丙" },
      { chatKey: A, nick: "甲" },
    ]);
    const reads = await history.eachChat(
      [A, "qq:group:GONE"],
      async (c) => (await logs.of(c).senders()).length,
    );
    expect(reads).toEqual({
      answers: [{ chatKey: A, value: 2 }],
      unread: [{ chatKey: "qq:group:GONE", reason: "failed" }],
    });
    expect(await history.searchSummaries({ chatKeys: [A], text: "x", limit: 3 })).toEqual([]);
  });
});

describe("interleaveChats", () => {
  const h = (chatKey: string, seq: number, via: "hit" | "context"): HistoryHit => ({
    seq,
    chatKey,
    messageId: `${chatKey}#${seq}`,
    ts: seq,
    nick: null,
    text: `${chatKey.slice(-1)}${seq}`,
    direction: "in",
    rank: 0,
    via,
  });

  it("puts context placed after several matches back with the nearest match, and drops another chat's rows", () => {
    const a = [h(A, 10, "hit"), h(A, 20, "hit"), h(A, 21, "context"), h(A, 9, "context"), h(B, 10, "hit")];
    const b = [h(B, 10, "hit"), h(B, 10, "context"), h(B, 11, "context")];
    const out = interleaveChats(
      [
        { chatKey: A, hits: a },
        { chatKey: B, hits: b },
      ],
      10,
    );
    expect(out.map((x) => `${x.text}${x.via === "context" ? "~" : ""}`)).toEqual([
      "A10",
      "A9~",
      "B10",
      "B11~",
      "A20",
      "A21~",
    ]);
    expect(interleaveChats([{ chatKey: A, hits: a }], 0)).toEqual([]);
  });
});
