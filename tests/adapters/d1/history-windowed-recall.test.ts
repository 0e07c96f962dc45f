// History recall's cheap statements over real local D1: the turn windows' FTS stops at its
// window inside FTS5 and only that window is joined and re-checked; the pipeline's load of
// the candidates is served from the rows that statement read; the context turns read a range
// around their hit. What they may return is what the statement over every match allowed: the
// chat's own messages, inside the view — never another chat's, a private chat's included,
// even when a row of it sits in this chat's FTS namespace (a token-prefix collision).
import { env } from "cloudflare:workers";
import { countingD1 } from "@src/adapters/d1/counting-d1";
import { messageRetrieval } from "@src/adapters/d1/d1-message-retrieval";
import { historySearch } from "@src/composition/common/history-search";
import { scopeKey } from "@src/domain/retrieval/scope-key";
import { chatIndexText } from "@src/domain/text/chat-search-tokens";
import { describe, it } from "vitest";
import { type Line, MINUTE, seedLines as seed, T0 } from "../../support/message-lines";

const group = () => `qq:group:${crypto.randomUUID()}`;
const lines = (chat: string, n: number, from: number, text: (i: number) => string): Line[] =>
  Array.from({ length: n }, (_, i) => ({ chat, id: `${chat}#${from + i}`, minute: from + i, text: text(i) }));

/** A search over a counting D1: its hits and the statements it sent, with their rows read. */
async function counted(q: { chatKey: string; text: string; limit: number; before?: number }) {
  const counter = countingD1(env.DB, "local");
  const hits = await historySearch({ ...env, DB: counter.db }).search({ ...q, reader: q.chatKey });
  const bill = counter.bill();
  return { hits, statements: bill.sql.map((sql, i) => ({ sql, rows: bill.rowsReadBySql[i] ?? 0 })) };
}

describe("history recall's windowed statements", () => {
  it("reads each candidate's row once: the pipeline's load is served from the FTS statement", async ({
    expect,
  }) => {
    const chat = group();
    await seed(lines(chat, 80, 0, (i) => `第${i}次说到烧烤的事`));
    const { hits, statements } = await counted({ chatKey: chat, text: "烧烤", limit: 7 });
    expect(hits.filter((h) => h.via === "hit")).toHaveLength(7);
    expect(hits.every((h) => h.chatKey === chat)).toBe(true);
    // No load by seq after the FTS statement, and the window joined no more rows than it holds.
    expect(statements.some((s) => s.sql.includes("m.seq IN (SELECT value FROM json_each"))).toBe(false);
    const fts = statements.filter((s) => s.sql.includes("FROM message_windows_fts"));
    expect(fts).toHaveLength(1);
    expect(fts[0]?.rows).toBeLessThanOrEqual(2 * 50);
    // The store of the same search answers the same rows without a statement of its own.
    const pair = messageRetrieval(env.DB, { reader: chat });
    const candidates = await pair.keywords.search({
      text: "烧烤",
      limit: 5,
      scopes: [scopeKey("chat", chat)],
      nodeTypes: ["passage"],
    });
    const loaded = await pair.store.load(candidates.map((c) => c.nodeId));
    expect(loaded.map((n) => n.nodeId).sort()).toEqual(candidates.map((c) => c.nodeId).sort());
    expect(loaded.every((n) => n.scopeId === chat && n.status === "active")).toBe(true);
  });

  it("runs the statement over every match when the window's best rows are outside the view", async ({
    expect,
  }) => {
    const chat = group();
    // Twenty long turns, then (after more than the session gap) sixty short ones that rank
    // better: a window of the fifty best holds only rows at or after `before`.
    const early = lines(chat, 20, 0, (i) => `今天第${i}次和大家商量周末要不要一起去吃烧烤`);
    const late = lines(chat, 60, 100, () => "烧烤烧烤");
    await seed([...early, ...late]);
    const before = T0 + 100 * MINUTE;
    const { hits, statements } = await counted({ chatKey: chat, text: "烧烤", limit: 7, before });
    expect(hits.filter((h) => h.via === "hit")).toHaveLength(7);
    expect(hits.every((h) => h.ts < before && h.chatKey === chat)).toBe(true);
    // The window was not exact, so the full statement ran after it.
    expect(statements.filter((s) => s.sql.includes("FROM message_windows_fts"))).toHaveLength(2);
  });

  it("never returns another chat's message, a private one included, even from this chat's FTS namespace", async ({
    expect,
  }) => {
    const chat = group();
    const dm = `qq:private:${crypto.randomUUID()}`;
    await seed([
      ...lines(chat, 60, 0, (i) => `群里第${i}次聊露营装备`),
      { chat: dm, id: "secret", minute: 30, text: "私聊：我的露营帐篷密码锁是 4321" },
    ]);
    // The private message's window row, rewritten in the group's namespace with the query's
    // words many times over (what a token-prefix collision could put there): the best row of
    // the group's window.
    const row = await env.DB.prepare("SELECT seq FROM messages WHERE chat_key = ? AND message_id = ?")
      .bind(dm, "secret")
      .first<{ seq: number }>();
    const seq = row?.seq ?? 0;
    await env.DB.prepare("DELETE FROM message_windows WHERE seq = ?").bind(seq).run();
    await env.DB.prepare("INSERT INTO message_windows (seq, tokens) VALUES (?, ?)")
      .bind(seq, chatIndexText(chat, "露营 露营 露营 露营"))
      .run();
    for (const limit of [3, 7, 40]) {
      const { hits } = await counted({ chatKey: chat, text: "露营", limit });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.chatKey === chat)).toBe(true);
      expect(hits.map((h) => h.text).join("\n")).not.toContain("密码锁");
      // The index's own SQL drops it, before the pipeline's re-check would.
      const candidates = await messageRetrieval(env.DB, { reader: chat }).keywords.search({
        text: "露营",
        limit,
        scopes: [scopeKey("chat", chat)],
        nodeTypes: ["passage"],
      });
      expect(candidates.length).toBeGreaterThan(0);
      expect(candidates.map((c) => c.nodeId)).not.toContain(`m_${seq}`);
    }
  });

  it("reads only the context turns around the hit, however long the chat", async ({ expect }) => {
    const chat = group();
    // One session of 150 turns; the only words are in the first (its next turn matches through
    // its window), so nearly every turn of the chat lies after the hit.
    await seed([
      { chat, id: "first", minute: 0, text: "我们去看极光吧" },
      ...lines(chat, 149, 1, (i) => `第${i}条别的话`),
    ]);
    const { hits, statements } = await counted({ chatKey: chat, text: "极光", limit: 3 });
    expect(hits.filter((h) => h.via === "hit").map((h) => h.text)).toContain("我们去看极光吧");
    const around = statements.filter((s) => s.sql.includes("FROM messages c JOIN messages m"));
    expect(around).toHaveLength(2);
    for (const side of around) expect(side.rows).toBeLessThanOrEqual(10);
  });
});
