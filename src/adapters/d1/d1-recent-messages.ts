/** The newest messages of one chat, read from the D1 message log (`history_recent`). */
import { and, desc, eq } from "drizzle-orm";
import type { HistoryHit } from "../../domain/history/history-search-port";
import type { RecentMessages } from "../../domain/history/pipeline-history-search";
import type { Database } from "./database";
import { messages } from "./schema";

export class D1RecentMessages implements RecentMessages {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** Newest first (ties by seq); `limit` is taken as given, the caller bounds it. */
  async recent(q: { chatKey: string; limit: number }): Promise<HistoryHit[]> {
    const rows = await this.#db
      .select()
      .from(messages)
      .where(and(eq(messages.chatKey, q.chatKey), eq(messages.recalled, false)))
      .orderBy(desc(messages.ts), desc(messages.seq))
      .limit(q.limit);
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
