/**
 * What `doctor` reads of the deployment's own D1 (composition/request/doctor-service.ts): the
 * migrations wrangler recorded as applied, and the group chats seen lately.
 */
import { isOneToOne } from "../../domain/chat/chat-address";

export class D1DeploymentProbe {
  readonly #d1: D1Database;
  constructor(d1: D1Database) {
    this.#d1 = d1;
  }

  /** Migration names in the order applied; throws when d1_migrations cannot be read. */
  async appliedMigrations(): Promise<string[]> {
    const rows = await this.#d1.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    return rows.results.map((r) => r.name);
  }

  /** Keys of the group chats seen most recently (at most `limit`); none when unreadable. */
  async recentGroupChats(limit: number): Promise<string[]> {
    return this.#d1
      .prepare("SELECT chat_key, target_type FROM chats ORDER BY last_seen DESC LIMIT ?")
      .bind(limit)
      .all<{ chat_key: string; target_type: string }>()
      .then((r) =>
        r.results
          .filter((c) => !isOneToOne(c.target_type) && c.target_type !== "unknown")
          .map((c) => c.chat_key),
      )
      .catch(() => [] as string[]);
  }
}
