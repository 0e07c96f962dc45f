/** D1 `chats`: OneBot groups without a title, and setting one only while it is still empty. */
import type { UntitledGroups } from "../../domain/sessions/group-titles";

export class D1UntitledGroups implements UntitledGroups {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async untitled(limit: number) {
    const { results } = await this.#db
      .prepare(
        `SELECT chat_key, target_id FROM chats
         WHERE channel = 'onebot' AND target_type = 'group' AND title IS NULL
         ORDER BY last_seen DESC LIMIT ?1`,
      )
      .bind(limit)
      .all<{ chat_key: string; target_id: string }>();
    return results.map((r) => ({ chatKey: r.chat_key, groupId: r.target_id }));
  }

  async setTitleIfUnset(chatKey: string, title: string) {
    await this.#db
      .prepare("UPDATE chats SET title = ?2 WHERE chat_key = ?1 AND title IS NULL")
      .bind(chatKey, title)
      .run();
  }
}
