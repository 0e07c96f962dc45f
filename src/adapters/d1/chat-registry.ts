/** Read side of the chat registry and the message log for the admin API. */
import { and, desc, eq, lt } from "drizzle-orm";
import type { Database } from "./database";
import { chats, messages } from "./schema";

export class D1ChatRegistry {
  readonly #db: Database;
  constructor(db: Database) {
    this.#db = db;
  }

  /** Chats, most recently active first. */
  async list(limit = 500) {
    return this.#db.select().from(chats).orderBy(desc(chats.lastSeen)).limit(limit);
  }

  async get(chatKey: string) {
    const rows = await this.#db.select().from(chats).where(eq(chats.chatKey, chatKey)).limit(1);
    return rows[0] ?? null;
  }

  /** A chat's messages, newest first; `before` pages by timestamp. */
  async messages(chatKey: string, limit: number, before?: number) {
    const where =
      before === undefined
        ? eq(messages.chatKey, chatKey)
        : and(eq(messages.chatKey, chatKey), lt(messages.ts, before));
    const rows = await this.#db
      .select({
        seq: messages.seq,
        transport: messages.transport,
        messageId: messages.messageId,
        ts: messages.ts,
        userId: messages.userId,
        accountKey: messages.accountKey,
        nick: messages.nick,
        text: messages.text,
        direction: messages.direction,
        recalled: messages.recalled,
      })
      .from(messages)
      .where(where)
      .orderBy(desc(messages.ts), desc(messages.seq))
      .limit(limit);
    return rows;
  }
}
