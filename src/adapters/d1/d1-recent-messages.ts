/**
 * HistorySearch over the D1 message log, one chat at a time: searches go through the shared
 * retrieval pipeline over the log's keyword index and store; recency listings read the log.
 */
import { and, desc, eq } from "drizzle-orm";
import { searchHistory } from "../../domain/history/history-search-pipeline";
import type { HistoryHit, HistorySearch } from "../../domain/history/history-search-port";
import { D1MessageKeywordIndex, D1MessageStore } from "./d1-message-retrieval";
import type { Database } from "./database";
import { messages } from "./schema";

export class D1HistorySearch implements HistorySearch {
  readonly #db: Database;
  readonly #binding: D1Database;
  constructor(db: Database, binding: D1Database) {
    this.#db = db;
    this.#binding = binding;
  }

  async search(q: { chatKey: string; text: string; limit: number; before?: number }): Promise<HistoryHit[]> {
    const view = q.before === undefined ? {} : { before: q.before };
    return searchHistory(
      {
        keywords: new D1MessageKeywordIndex(this.#binding, view),
        store: new D1MessageStore(this.#binding, view),
      },
      { chatKey: q.chatKey, text: q.text, limit: Math.min(q.limit, 100) },
    );
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
