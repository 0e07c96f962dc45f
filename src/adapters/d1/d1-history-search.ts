/** HistorySearch over the D1 message log and its CJK FTS index, one chat at a time. */
import { and, desc, eq } from "drizzle-orm";
import type { HistoryHit, HistorySearch } from "../../domain/history/history-search";
import { chatMatchExpression } from "../../domain/text/chat-search-tokens";
import type { Database } from "./database";
import { messages } from "./schema";

type Row = {
  seq: number;
  chat_key: string;
  message_id: string;
  ts: number;
  nick: string | null;
  text: string;
  direction: "in" | "out";
  rank: number;
};

export class D1HistorySearch implements HistorySearch {
  readonly #db: Database;
  readonly #binding: D1Database;
  constructor(db: Database, binding: D1Database) {
    this.#db = db;
    this.#binding = binding;
  }

  async search(q: { chatKey: string; text: string; limit: number; before?: number }): Promise<HistoryHit[]> {
    const match = chatMatchExpression(q.chatKey, q.text);
    if (!match || q.limit <= 0) return [];
    // Tokens are in the chat's own namespace, so FTS reads and ranks only this chat's rows;
    // the SQL filter on chat_key stays as the authoritative check.
    const { results } = await this.#binding
      .prepare(
        `SELECT m.seq, m.chat_key, m.message_id, m.ts, m.nick, m.text, m.direction, bm25(messages_fts) AS rank
         FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid
         WHERE messages_fts MATCH ?1 AND m.chat_key = ?2 AND m.recalled = 0 AND m.ts < ?3
         ORDER BY rank LIMIT ?4`,
      )
      .bind(match, q.chatKey, q.before ?? Number.MAX_SAFE_INTEGER, Math.min(q.limit, 100))
      .all<Row>();
    return results.map(toHit);
  }

  async recent(q: { chatKey: string; limit: number }): Promise<HistoryHit[]> {
    const rows = await this.#db
      .select()
      .from(messages)
      .where(and(eq(messages.chatKey, q.chatKey), eq(messages.recalled, false)))
      .orderBy(desc(messages.ts), desc(messages.seq))
      .limit(Math.max(1, Math.min(q.limit, 500)));
    return rows.map((r) => ({
      seq: r.seq,
      chatKey: r.chatKey,
      messageId: r.messageId,
      ts: r.ts,
      nick: r.nick,
      text: r.text,
      direction: r.direction,
      rank: null,
    }));
  }
}

function toHit(r: Row): HistoryHit {
  return {
    seq: r.seq,
    chatKey: r.chat_key,
    messageId: r.message_id,
    ts: r.ts,
    nick: r.nick,
    text: r.text,
    direction: r.direction,
    rank: r.rank,
  };
}
