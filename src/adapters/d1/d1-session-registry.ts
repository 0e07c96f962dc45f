/**
 * The session registry over D1 (docs/sessions.md): `chat_sessions` rows beside `chats`, the
 * cluster links the recall cascade reads, and the per-chat forget and export. Rows for chats
 * that predate the table (or were registered since) are backfilled on every registry read,
 * since a session id is a hash SQL cannot compute. The forgets are d1-chat-forget.ts and
 * d1-person-forget.ts, the export d1-session-export.ts.
 */
import type { ChatLinks } from "../../domain/memory/memory-store";
import { sessionIdOf } from "../../domain/sessions/session-id";
import type {
  ExportData,
  ForgetCounts,
  PersonForgetCounts,
  PersonForgetPreview,
  SessionInfo,
  SessionRegistry,
} from "../../domain/sessions/session-registry";
import { forgetChat } from "./d1-chat-forget";
import type { AfterRemoval } from "./d1-chunked-deletes";
import { jsonChunks } from "./d1-json-chunks";
import { forgetAccountMessages, forgetPerson, previewForgetPerson } from "./d1-person-forget";
import { type ExportLogSource, exportChatData } from "./d1-session-export";

const CHUNK = 500;

type Row = {
  session_id: string;
  chat_key: string;
  target_type: string;
  alias: string | null;
  title: string | null;
  cluster_id: string;
  store_enabled: number;
  keep_days: number | null;
  last_seen: number | null;
};

// The title is the platform's chat name when the adapter stored one; for a one-to-one chat
// without one, the other side's latest display name in it (a OneBot friend's nickname).
const SELECT = `SELECT s.session_id, s.chat_key, COALESCE(c.target_type, 'unknown') AS target_type, s.alias,
    COALESCE(c.title, CASE WHEN c.target_type = 'private' THEN (
      SELECT o.display_name FROM account_observations o
      WHERE o.chat_key = s.chat_key AND o.user_id = c.target_id AND o.display_name IS NOT NULL
      ORDER BY o.last_seen DESC LIMIT 1) END) AS title,
    s.cluster_id, s.store_enabled, c.retention_days AS keep_days, c.last_seen
  FROM chat_sessions s LEFT JOIN chats c ON c.chat_key = s.chat_key`;

const toInfo = (r: Row): SessionInfo => ({
  sessionId: r.session_id,
  chatKey: r.chat_key,
  targetType: r.target_type,
  alias: r.alias,
  title: r.title,
  clusterId: r.cluster_id,
  storeEnabled: r.store_enabled === 1,
  keepDays: r.keep_days,
  lastSeen: r.last_seen,
});

export type SessionRegistryDeps = {
  /** Removes the vectors and unreferenced embeddings of deleted nodes (knowledge maintenance). */
  readonly afterRemoval: AfterRemoval;
  /** Where an export reads the chat's log (the chat's object); D1's log when not given. */
  readonly exportLog?: ExportLogSource;
};

export class D1SessionRegistry implements SessionRegistry, ChatLinks {
  readonly #db: D1Database;
  readonly #deps: SessionRegistryDeps;
  constructor(db: D1Database, deps: SessionRegistryDeps) {
    this.#db = db;
    this.#deps = deps;
  }

  /** Registers every chat that has no session row yet, each in a cluster of its own. */
  async backfill(now = Date.now()): Promise<number> {
    let added = 0;
    for (;;) {
      const { results } = await this.#db
        .prepare(
          `SELECT c.chat_key FROM chats c WHERE NOT EXISTS (SELECT 1 FROM chat_sessions s WHERE s.chat_key = c.chat_key) LIMIT ?1`,
        )
        .bind(CHUNK)
        .all<{ chat_key: string }>();
      if (results.length === 0) return added;
      const rows = results.map((r) => [r.chat_key, sessionIdOf(r.chat_key)]);
      for (const chunk of jsonChunks(rows)) {
        const done = await this.#db
          .prepare(
            `INSERT OR IGNORE INTO chat_sessions (chat_key, session_id, cluster_id, created_at, updated_at)
             SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[1]', ?2, ?2 FROM json_each(?1)`,
          )
          .bind(chunk, now)
          .run();
        added += done.meta.changes ?? 0;
      }
      if (results.length < CHUNK) return added;
    }
  }

  /** The other chats of this chat's cluster: one indexed read per turn, nothing for an unregistered chat. */
  async linkedChats(chatKey: string): Promise<readonly string[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT o.chat_key FROM chat_sessions me JOIN chat_sessions o ON o.cluster_id = me.cluster_id
         WHERE me.chat_key = ?1 AND o.chat_key != ?1 ORDER BY o.chat_key`,
      )
      .bind(chatKey)
      .all<{ chat_key: string }>();
    return results.map((r) => r.chat_key);
  }

  async list(q: { since?: number; limit: number }): Promise<SessionInfo[]> {
    await this.backfill();
    const where = q.since === undefined ? "" : "WHERE c.last_seen >= ?2";
    const statement = this.#db.prepare(`${SELECT} ${where} ORDER BY c.last_seen DESC, s.chat_key LIMIT ?1`);
    const { results } = await (q.since === undefined
      ? statement.bind(q.limit)
      : statement.bind(q.limit, q.since)
    ).all<Row>();
    return results.map(toInfo);
  }

  async resolve(ref: string): Promise<SessionInfo | null> {
    await this.backfill();
    const row = await this.#db
      .prepare(`${SELECT} WHERE s.session_id = ?1 OR s.alias = ?1 OR s.chat_key = ?1 LIMIT 1`)
      .bind(ref)
      .first<Row>();
    return row ? toInfo(row) : null;
  }

  async findByName(name: string, limit: number): Promise<SessionInfo[]> {
    await this.backfill();
    const { results } = await this.#db
      .prepare(
        `SELECT * FROM (${SELECT}) WHERE instr(lower(alias), lower(?1)) > 0 OR instr(lower(title), lower(?1)) > 0
         ORDER BY last_seen DESC LIMIT ?2`,
      )
      .bind(name, limit)
      .all<Row>();
    return results.map(toInfo);
  }

  async members(clusterId: string): Promise<SessionInfo[]> {
    const { results } = await this.#db
      .prepare(`${SELECT} WHERE s.cluster_id = ?1 ORDER BY s.chat_key`)
      .bind(clusterId)
      .all<Row>();
    return results.map(toInfo);
  }

  async setCluster(chatKey: string, clusterId: string, at: number): Promise<void> {
    await this.#db
      .prepare("UPDATE chat_sessions SET cluster_id = ?2, updated_at = ?3 WHERE chat_key = ?1")
      .bind(chatKey, clusterId, at)
      .run();
  }

  async rename(chatKey: string, alias: string, at: number): Promise<"ok" | "taken"> {
    const other = await this.#db
      .prepare("SELECT chat_key FROM chat_sessions WHERE alias = ?1 AND chat_key != ?2")
      .bind(alias, chatKey)
      .first();
    if (other) return "taken";
    await this.#db
      .prepare("UPDATE chat_sessions SET alias = ?2, updated_at = ?3 WHERE chat_key = ?1")
      .bind(chatKey, alias, at)
      .run();
    return "ok";
  }

  async setKeepDays(chatKey: string, days: number | null, at: number): Promise<void> {
    await this.#db.batch([
      this.#db.prepare("UPDATE chats SET retention_days = ?2 WHERE chat_key = ?1").bind(chatKey, days),
      this.#db.prepare("UPDATE chat_sessions SET updated_at = ?2 WHERE chat_key = ?1").bind(chatKey, at),
    ]);
  }

  async setStoreEnabled(chatKey: string, enabled: boolean, at: number): Promise<void> {
    await this.#db
      .prepare("UPDATE chat_sessions SET store_enabled = ?2, updated_at = ?3 WHERE chat_key = ?1")
      .bind(chatKey, enabled ? 1 : 0, at)
      .run();
  }

  /** Every row of this chat, and no other chat's (d1-chat-forget.ts). */
  forget(chatKey: string): Promise<ForgetCounts> {
    return forgetChat(this.#db, chatKey, this.#deps.afterRemoval);
  }

  /** A left-out person's own messages, from every chat's log (d1-person-forget.ts). */
  forgetAccountMessages(account: string): Promise<number> {
    return forgetAccountMessages(this.#db, account);
  }

  forgetPerson(personId: string, accounts: readonly string[]): Promise<PersonForgetCounts> {
    return forgetPerson(this.#db, personId, accounts, this.#deps.afterRemoval);
  }

  previewForgetPerson(personId: string, accounts: readonly string[]): Promise<PersonForgetPreview> {
    return previewForgetPerson(this.#db, personId, accounts);
  }

  exportData(chatKey: string, withLog: boolean): Promise<ExportData> {
    return exportChatData(this.#db, chatKey, withLog, this.#deps.exportLog);
  }
}
