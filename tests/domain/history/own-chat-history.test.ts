// The turn reads its own chat's log where its object keeps it and every other chat's log through
// the cross-chat reader; the chat key alone decides, and the reader (the read gate's input)
// reaches either unchanged.

import type { HistoryHit, HistorySearch } from "@src/domain/history/history-search-port";
import { OwnChatHistory } from "@src/domain/history/own-chat-history";
import { describe, it } from "vitest";

type Call = { via: string; method: string; q: unknown };

function recording(via: string, calls: Call[]): HistorySearch {
  const hit = (chatKey: string): HistoryHit => ({
    seq: 1,
    chatKey,
    messageId: `${via}-1`,
    ts: 1,
    nick: null,
    text: via,
    direction: "in",
    rank: null,
  });
  return {
    search: async (q) => (calls.push({ via, method: "search", q }), [hit(q.chatKey)]),
    recent: async (q) => (calls.push({ via, method: "recent", q }), [hit(q.chatKey)]),
    searchAcross: async (q) => (calls.push({ via, method: "searchAcross", q }), []),
    senders: async (keys) => (calls.push({ via, method: "senders", q: keys }), []),
    searchSummaries: async (q) => (calls.push({ via, method: "summaries", q }), []),
  };
}

describe("OwnChatHistory", () => {
  const own = "qq:group:HERE";
  const other = "qq:private:SOMEONE";

  it("reads its own chat locally and another chat through the cross-chat reader", async ({ expect }) => {
    const calls: Call[] = [];
    const history = new OwnChatHistory(own, recording("local", calls), recording("others", calls));
    const mine = await history.search({ chatKey: own, reader: own, text: "开会", limit: 5 });
    const theirs = await history.recent({ chatKey: other, reader: own, limit: 5 });
    expect(mine[0]?.text).toBe("local");
    expect(theirs[0]?.text).toBe("others");
    // The reader is the turn's own chat in both: the gate in the other chat's log sees who asks.
    expect(calls.map((c) => [c.via, (c.q as { reader: string }).reader])).toEqual([
      ["local", own],
      ["others", own],
    ]);
  });

  it("sends every read across chats, and a sender lookup beyond its own chat, to the cross-chat reader", async ({
    expect,
  }) => {
    const calls: Call[] = [];
    const history = new OwnChatHistory(own, recording("local", calls), recording("others", calls));
    await history.searchAcross({ chatKeys: [own, other], reader: own, text: "烧烤", limit: 5 });
    await history.senders([own, other]);
    await history.senders([own]);
    await history.searchSummaries({ chatKeys: [other], text: "烧烤", limit: 3 });
    expect(calls.map((c) => `${c.via}.${c.method}`)).toEqual([
      "others.searchAcross",
      "others.senders",
      "local.senders",
      "others.summaries",
    ]);
  });

  it("never reads locally for a key that only looks like its own", async ({ expect }) => {
    const calls: Call[] = [];
    const history = new OwnChatHistory(own, recording("local", calls), recording("others", calls));
    for (const chatKey of [`${own} `, own.toUpperCase(), `${own}:x`, "qq:group:here"])
      await history.search({ chatKey, reader: own, text: "x", limit: 1 });
    expect(calls.every((c) => c.via === "others")).toBe(true);
  });

  it("says which chats a read across chats could not read, as the cross-chat reader reports them", async ({
    expect,
  }) => {
    const calls: Call[] = [];
    const others: HistorySearch = {
      ...recording("others", calls),
      searchAcrossChats: async () => ({
        hits: [],
        unread: [{ chatKey: "qq:group:SLOW", reason: "timeout" }],
      }),
      eachChat: async (keys, read) => ({
        answers: [{ chatKey: keys[0] ?? "", value: await read(keys[0] ?? "") }],
        unread: keys.slice(1).map((chatKey) => ({ chatKey, reason: "failed" as const })),
      }),
    };
    const history = new OwnChatHistory(own, recording("local", calls), others);
    const across = await history.searchAcrossChats({ chatKeys: [other], reader: own, text: "x", limit: 3 });
    expect(across.unread).toEqual([{ chatKey: "qq:group:SLOW", reason: "timeout" }]);
    const each = await history.eachChat([own, other], async (k) => k.length);
    expect(each.unread).toEqual([{ chatKey: other, reason: "failed" }]);
    // Without a way of its own, the reader's chats are read one after the other, none left out.
    const plain = new OwnChatHistory(own, recording("local", calls), recording("others", calls));
    expect((await plain.eachChat([own, other], async (k) => k)).answers.map((a) => a.value)).toEqual([
      own,
      other,
    ]);
    expect(
      (await plain.searchAcrossChats({ chatKeys: [other], reader: own, text: "x", limit: 3 })).unread,
    ).toEqual([]);
  });
});
