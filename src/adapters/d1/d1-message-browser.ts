/** A chat's messages for the dashboard's history page: text, sender and date filters in SQL. */

export type MessageFilter = {
  readonly text?: string;
  /** A user id, account key or nickname, exactly. */
  readonly sender?: string;
  readonly from?: number;
  readonly until?: number;
  readonly limit: number;
};

export type BrowsedMessage = {
  seq: number;
  ts: number;
  direction: "in" | "out";
  userId: string | null;
  nick: string | null;
  text: string;
  recalled: number;
};

export class D1MessageBrowser {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  /** Newest first. */
  async messages(chatKey: string, f: MessageFilter): Promise<BrowsedMessage[]> {
    const where = ["chat_key = ?1"];
    const binds: (string | number)[] = [chatKey];
    const bind = (value: string | number) => {
      binds.push(value);
      return `?${binds.length}`;
    };
    if (f.text) where.push(`instr(lower(text), lower(${bind(f.text)})) > 0`);
    if (f.sender) {
      const sender = bind(f.sender);
      where.push(`(user_id = ${sender} OR account_key = ${sender} OR nick = ${sender})`);
    }
    if (f.from !== undefined) where.push(`ts >= ${bind(f.from)}`);
    if (f.until !== undefined) where.push(`ts < ${bind(f.until)}`);
    const { results } = await this.#db
      .prepare(
        `SELECT seq, ts, direction, user_id AS userId, nick, text, recalled FROM messages
         WHERE ${where.join(" AND ")} ORDER BY ts DESC, seq DESC LIMIT ${bind(f.limit)}`,
      )
      .bind(...binds)
      .all<BrowsedMessage>();
    return results;
  }
}
