// History search may reorder its matches by a model of meaning (the read model's
// `historyFusionWeight`, docs/retrieval.md#history-rerank). The reorder must not widen what a
// reader sees: the reranker is handed only what the log's view already let through (the reading
// chat, its days, recalled messages out, another chat's marked messages out), and the answer
// holds nothing else. The reranker below is hostile on purpose: it scores highest exactly the
// texts the view must keep from it, so any leak would come first.
import { env } from "cloudflare:workers";
import { D1MessageLog } from "@src/adapters/d1/d1-message-log";
import { openDatabase } from "@src/adapters/d1/database";
import { historySearch } from "@src/composition/common/history-search";
import type { HistoryRerank } from "@src/domain/history/history-retrieval";
import { inboundRecord, type MessageRecord } from "@src/domain/history/message-record";
import { ok } from "@src/domain/kernel/result";
import type { Reranker } from "@src/domain/retrieval/ports";
import { describe, it } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { MINUTE, seedLines, T0 } from "../support/message-lines";

const newChat = () => `qq:group:${crypto.randomUUID()}`;

/** Scores a text by how much of `loved` it holds, and records every text it was shown. */
function hostileReranker(loved: readonly string[]): { reranker: Reranker; shown: string[] } {
  const shown: string[] = [];
  return {
    shown,
    reranker: {
      async rerank(_query, texts) {
        shown.push(...texts);
        return ok(texts.map((t) => loved.filter((w) => t.includes(w)).length * 10 + 1 / (1 + t.length)));
      },
    },
  };
}

const withRerank = (r: Reranker, weight = 5) =>
  historySearch(env, { rerank: async (): Promise<HistoryRerank> => ({ reranker: r, weight }) });

type Inbound = { chat: string; id: string; minute: number; text: string; sender?: string };

async function writeInbound(lines: readonly Inbound[]) {
  const messages: MessageRecord[] = lines.map((l) => {
    const record = inboundRecord(
      messageEvent({
        chat: l.chat,
        text: l.text,
        sender: l.sender ?? `S${l.id}`,
        name: "群友",
        id: l.id,
        ts: T0 + l.minute * MINUTE,
        addressedToBot: false,
      }),
    );
    if (!record) throw new Error("no record");
    return record;
  });
  await new D1MessageLog(openDatabase(env.DB)).flush({
    messages,
    recalls: [],
    chats: [],
    usage: [],
    audit: [],
  });
}

/**
 * Searches `chat` for `text` through the hostile reranker loving `loved`: first as a reader in
 * another chat, then as the chat itself. The other reader's matches, every text the reranker
 * was shown or answered with for that reader, and the chat's own matches.
 */
async function acrossThenOwn(chat: string, text: string, loved: readonly string[]) {
  const { reranker, shown } = hostileReranker(loved);
  const search = withRerank(reranker);
  const across = (await search.searchAcross({ chatKeys: [chat], reader: newChat(), text, limit: 10 })).map(
    (h) => h.text,
  );
  const seenAcross = [...shown, ...across];
  const own = (await search.search({ chatKey: chat, reader: chat, text, limit: 10 })).map((h) => h.text);
  return { across, seenAcross, own };
}

describe("history rerank reads through the log's gate", () => {
  it("is shown only the reading chat's messages, never another chat's, and answers with them only", async ({
    expect,
  }) => {
    const [a, b] = [newChat(), newChat()];
    await seedLines([
      { chat: a, id: "a0", minute: 0, text: "周末去烧烤" },
      { chat: b, id: "b0", minute: 1, text: "烧烤 B群的门禁密码 换了" },
      { chat: a, id: "a1", minute: 2, text: "烧烤要带炭" },
      { chat: b, id: "b1", minute: 3, text: "B群 烧烤 地址在梧桐路" },
    ]);
    const { reranker, shown } = hostileReranker(["B群", "梧桐路", "门禁"]);
    const hits = await withRerank(reranker).search({ chatKey: a, reader: a, text: "烧烤", limit: 10 });
    expect(shown.length).toBeGreaterThan(0);
    for (const text of [...shown, ...hits.map((h) => h.text)]) expect(text).not.toMatch(/B群|梧桐路|门禁/);
    expect(hits.every((h) => h.chatKey === a)).toBe(true);
  });

  it("never sees a recalled message, nor one outside the days asked", async ({ expect }) => {
    const a = newChat();
    await seedLines(
      [
        { chat: a, id: "old", minute: 0, text: "烧烤 很久以前 的秘密" },
        { chat: a, id: "x0", minute: 60 * 24, text: "烧烤 去不去" },
        { chat: a, id: "gone", minute: 60 * 24 + 1, text: "烧烤 撤回的那句" },
        { chat: a, id: "x1", minute: 60 * 24 + 2, text: "烧烤 去" },
      ],
      [{ chat: a, id: "gone" }],
    );
    const { reranker, shown } = hostileReranker(["秘密", "撤回"]);
    const hits = await withRerank(reranker).search({
      chatKey: a,
      reader: a,
      text: "烧烤",
      limit: 10,
      since: T0 + 60 * 24 * MINUTE,
    });
    expect(hits.map((h) => h.text)).toContain("烧烤 去不去");
    for (const text of [...shown, ...hits.map((h) => h.text)]) expect(text).not.toMatch(/秘密|撤回/);
  });

  it("reading another chat, never sees a message its speaker marked private there", async ({ expect }) => {
    const a = newChat();
    await writeInbound([
      { chat: a, id: `${a}-m`, minute: 0, text: "这事别外传啊，烧烤那天我要请假去面试" },
      { chat: a, id: `${a}-p`, minute: 5, text: "烧烤那天记得带炭" },
    ]);
    const { across, seenAcross, own } = await acrossThenOwn(a, "烧烤那天", ["面试", "请假"]);
    expect(across).toContain("烧烤那天记得带炭");
    for (const text of seenAcross) expect(text).not.toMatch(/面试|请假/);
    // Its own chat still reads it, reranked or not.
    expect(own).toContain("这事别外传啊，烧烤那天我要请假去面试");
  });

  it.for([
    ["traditional characters, the request in the next message", "烧烤那天我其實要去複診", "別說出去哈"],
    [
      "English, the request in the next message",
      "bbq day I'm actually seeing a lawyer",
      "pls don't tell anyone",
    ],
  ])(
    "reading another chat, never sees a message marked private in %s",
    async ([, said, asked], { expect }) => {
      const a = newChat();
      const speaker = `S${crypto.randomUUID().slice(0, 8)}`;
      await writeInbound([
        { chat: a, id: `${a}-s`, minute: 0, text: said ?? "", sender: speaker },
        { chat: a, id: `${a}-r`, minute: 1, text: asked ?? "", sender: speaker },
        { chat: a, id: `${a}-o`, minute: 5, text: "烧烤那天 bbq day 记得带炭" },
      ]);
      const secret = /複診|lawyer/;
      const { across, seenAcross, own } = await acrossThenOwn(a, "烧烤那天 bbq day", ["複診", "lawyer"]);
      expect(across).toContain("烧烤那天 bbq day 记得带炭");
      for (const text of seenAcross) expect(text).not.toMatch(secret);
      // The words do find it: its own chat reads it, so only the mark keeps it from the other.
      expect(own).toContain(said);
    },
  );

  it("reorders the matches it was shown, and a failing reranker leaves the words' order", async ({
    expect,
  }) => {
    const a = newChat();
    // Far apart, so each is a match of its own session.
    await seedLines([
      { chat: a, id: "p0", minute: 0, text: "烧烤 烧烤 烧烤 周末" },
      { chat: a, id: "p1", minute: 600, text: "烧烤 带炭" },
    ]);
    const plain = await historySearch(env, { rerank: async () => null }).search({
      chatKey: a,
      reader: a,
      text: "烧烤",
      limit: 2,
    });
    expect(plain[0]?.text).toBe("烧烤 烧烤 烧烤 周末");
    const { reranker } = hostileReranker(["带炭"]);
    const reranked = await withRerank(reranker).search({ chatKey: a, reader: a, text: "烧烤", limit: 2 });
    expect(reranked[0]?.text).toBe("烧烤 带炭");
    expect(new Set(reranked.map((h) => h.text))).toEqual(new Set(plain.map((h) => h.text)));
    const failing: Reranker = {
      rerank: async () => ({ ok: false, error: { kind: "unavailable", message: "down" } }),
    };
    const fallback = await withRerank(failing).search({ chatKey: a, reader: a, text: "烧烤", limit: 2 });
    expect(fallback.map((h) => h.text)).toEqual(plain.map((h) => h.text));
  });
});
