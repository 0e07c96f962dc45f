/**
 * The session registry over D1 (docs/sessions.md): `chat_sessions` rows beside `chats`, the
 * cluster links the recall cascade reads, and the per-chat forget and export. Rows for chats
 * that predate the table (or were registered since) are backfilled on every registry read,
 * since a session id is a hash SQL cannot compute.
 */
import type { Removed } from "../../domain/knowledge/knowledge-store";
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
import { jsonChunks } from "./d1-json-chunks";

const CHUNK = 500;
const EXPORT_LOG_LIMIT = 5000;

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
  readonly afterRemoval: (removed: Removed) => Promise<void>;
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

  /**
   * Deletes, in chunks, every row of this chat: its messages (the FTS trigger removes their
   * index rows), its chat-scope nodes — memory, summaries, episodes — with their FTS rows and
   * edges, its dreaming candidates and runs, its observations; then the vectors and the
   * embeddings no other node shares. Other chats' rows are never touched: every statement is
   * keyed by this chat.
   */
  async forget(chatKey: string): Promise<ForgetCounts> {
    // Counted from the selected rows: D1's `changes` also counts what the FTS trigger wrote.
    // The log's triggers remove the conversation sessions and turn windows with the messages;
    // they are counted first, and whatever a trigger left is deleted by chat below.
    const [sessionRows, windowRows] = await this.#db.batch<{ n: number }>([
      this.#db.prepare("SELECT count(*) AS n FROM conversation_sessions WHERE chat_key = ?1").bind(chatKey),
      this.#db
        .prepare(
          "SELECT count(*) AS n FROM message_windows w JOIN messages m ON m.seq = w.seq WHERE m.chat_key = ?1",
        )
        .bind(chatKey),
    ]);
    let messages = 0;
    for (;;) {
      const { results } = await this.#db
        .prepare("SELECT seq FROM messages WHERE chat_key = ?1 LIMIT ?2")
        .bind(chatKey, CHUNK)
        .all<{ seq: number }>();
      if (results.length === 0) break;
      await this.#db
        .prepare("DELETE FROM messages WHERE seq IN (SELECT value FROM json_each(?1))")
        .bind(JSON.stringify(results.map((r) => r.seq)))
        .run();
      messages += results.length;
      if (results.length < CHUNK) break;
    }
    const nodes = await this.#deleteNodes("scope_type = 'chat' AND scope_id = ?1", [chatKey]);
    const [candidates, runs, observations] = await this.#db.batch([
      this.#db.prepare("DELETE FROM memory_candidates WHERE chat_key = ?1").bind(chatKey),
      this.#db.prepare("DELETE FROM memory_runs WHERE chat_key = ?1").bind(chatKey),
      this.#db.prepare("DELETE FROM account_observations WHERE chat_key = ?1").bind(chatKey),
      this.#db.prepare("DELETE FROM conversation_sessions WHERE chat_key = ?1").bind(chatKey),
      // A OneBot group's backfill (not started, running or failed) would fetch the forgotten
      // history again: its record is closed. It holds no message text, like summary_days.
      this.#db
        .prepare(
          `INSERT INTO backfill_progress (chat_key, status, done_reason, started_at, updated_at)
           SELECT ?1, 'done', 'forgotten', ?2, ?2 WHERE ?1 LIKE 'onebot:group:%'
           ON CONFLICT (chat_key) DO UPDATE SET status = 'done', done_reason = 'forgotten', updated_at = ?2
           WHERE status <> 'done'`,
        )
        .bind(chatKey, Date.now()),
    ]);
    return {
      messages,
      messagesFts: messages,
      conversationSessions: sessionRows?.results[0]?.n ?? 0,
      messageWindows: windowRows?.results[0]?.n ?? 0,
      memory: nodes.byType.memory ?? 0,
      summaries: nodes.byType.summary ?? 0,
      otherNodes: nodes.total - (nodes.byType.memory ?? 0) - (nodes.byType.summary ?? 0),
      nodesFts: nodes.total,
      edges: nodes.edges,
      candidates: candidates?.meta.changes ?? 0,
      runs: runs?.meta.changes ?? 0,
      observations: observations?.meta.changes ?? 0,
      embeddings: nodes.embeddings,
      vectors: nodes.vectors,
    };
  }

  /**
   * Deletes one account's own messages from the log of every chat (a left-out person's past,
   * docs/settings.md#privacy-leaving-a-person-out); the log's triggers take their FTS rows, windows and sender counts.
   */
  async forgetAccountMessages(account: string): Promise<number> {
    let messages = 0;
    for (;;) {
      const { results } = await this.#db
        .prepare("SELECT seq FROM messages WHERE account_key = ?1 LIMIT ?2")
        .bind(account, CHUNK)
        .all<{ seq: number }>();
      if (results.length === 0) break;
      await this.#db
        .prepare("DELETE FROM messages WHERE seq IN (SELECT value FROM json_each(?1))")
        .bind(JSON.stringify(results.map((r) => r.seq)))
        .run();
      messages += results.length;
      if (results.length < CHUNK) break;
    }
    return messages;
  }

  async forgetPerson(personId: string, accounts: readonly string[]): Promise<PersonForgetCounts> {
    const scopes = [["person", personId], ...accounts.map((a) => ["account", a])];
    const nodes = await this.#deleteNodes(
      "(scope_type, scope_id) IN (SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(?1))",
      [JSON.stringify(scopes)],
    );
    const list = JSON.stringify(accounts);
    const [candidates, observations] = await this.#db.batch([
      this.#db
        .prepare(
          `DELETE FROM memory_candidates
           WHERE (scope_type, scope_id) IN (SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(?1))`,
        )
        .bind(JSON.stringify(scopes)),
      this.#db
        .prepare("DELETE FROM account_observations WHERE account_key IN (SELECT value FROM json_each(?1))")
        .bind(list),
    ]);
    return {
      accounts,
      memory: nodes.total,
      nodesFts: nodes.total,
      candidates: candidates?.meta.changes ?? 0,
      observations: observations?.meta.changes ?? 0,
      embeddings: nodes.embeddings,
      vectors: nodes.vectors,
    };
  }

  async previewForgetPerson(personId: string, accounts: readonly string[]): Promise<PersonForgetPreview> {
    const scopes = JSON.stringify([["person", personId], ...accounts.map((a) => ["account", a])]);
    const inScopes =
      "(scope_type, scope_id) IN (SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(?1))";
    const row = await this.#db
      .prepare(
        `SELECT (SELECT count(*) FROM nodes WHERE ${inScopes}) AS memory,
                (SELECT count(*) FROM memory_candidates WHERE ${inScopes}) AS candidates,
                (SELECT count(*) FROM account_observations WHERE account_key IN (SELECT value FROM json_each(?2))) AS observations`,
      )
      .bind(scopes, JSON.stringify(accounts))
      .first<{ memory: number; candidates: number; observations: number }>();
    return {
      accounts,
      memory: row?.memory ?? 0,
      candidates: row?.candidates ?? 0,
      observations: row?.observations ?? 0,
    };
  }

  async exportData(chatKey: string, withLog: boolean): Promise<ExportData> {
    const { results } = await this.#db
      .prepare(
        `SELECT node_id, node_type, COALESCE(kind, node_type) AS kind, raw_text, sensitivity, status, created_at
         FROM nodes WHERE scope_type = 'chat' AND scope_id = ?1 AND node_type IN ('memory', 'summary')
         ORDER BY created_at, seq`,
      )
      .bind(chatKey)
      .all<{
        node_id: string;
        node_type: string;
        kind: string;
        raw_text: string;
        sensitivity: string;
        status: string;
        created_at: number;
      }>();
    const item = (r: (typeof results)[number]) => ({
      nodeId: r.node_id,
      kind: r.kind,
      text: r.raw_text,
      sensitivity: r.sensitivity,
      status: r.status,
      createdAt: r.created_at,
    });
    const data = {
      memory: results.filter((r) => r.node_type === "memory").map(item),
      summaries: results.filter((r) => r.node_type === "summary").map(item),
    };
    if (!withLog) return data;
    const log = await this.#db
      .prepare(
        `SELECT ts, direction, nick, text FROM (SELECT * FROM messages WHERE chat_key = ?1 ORDER BY ts DESC, seq DESC LIMIT ?2)
         ORDER BY ts, seq`,
      )
      .bind(chatKey, EXPORT_LOG_LIMIT)
      .all<{ ts: number; direction: "in" | "out"; nick: string | null; text: string }>();
    return { ...data, log: log.results };
  }

  /** Deletes the nodes matching `where` in chunks, then their edges, vector sync rows, vectors and embeddings. */
  async #deleteNodes(where: string, binds: string[]) {
    const byType: Record<string, number> = {};
    let edges = 0;
    const nodeIds: string[] = [];
    const hashes = new Set<string>();
    for (;;) {
      const { results } = await this.#db
        .prepare(`SELECT node_id, node_type, content_hash FROM nodes WHERE ${where} LIMIT ${CHUNK}`)
        .bind(...binds)
        .all<{ node_id: string; node_type: string; content_hash: string }>();
      if (results.length === 0) break;
      for (const r of results) {
        nodeIds.push(r.node_id);
        hashes.add(r.content_hash);
        byType[r.node_type] = (byType[r.node_type] ?? 0) + 1;
      }
      const ids = JSON.stringify(results.map((r) => r.node_id));
      const [gone] = await this.#db.batch([
        this.#db
          .prepare(
            "DELETE FROM edges WHERE src_id IN (SELECT value FROM json_each(?1)) OR dst_id IN (SELECT value FROM json_each(?1))",
          )
          .bind(ids),
        this.#db.prepare("DELETE FROM nodes WHERE node_id IN (SELECT value FROM json_each(?1))").bind(ids),
      ]);
      edges += gone?.meta.changes ?? 0;
    }
    let vectors = 0;
    let embeddings = 0;
    if (nodeIds.length > 0) {
      const hashList = [...hashes];
      const before = await this.#countEmbeddings(hashList);
      for (const chunk of jsonChunks(nodeIds)) {
        const r = await this.#db
          .prepare("DELETE FROM vector_sync WHERE node_id IN (SELECT value FROM json_each(?1))")
          .bind(chunk)
          .run();
        vectors += r.meta.changes ?? 0;
      }
      await this.#deps.afterRemoval({ nodeIds, hashes: hashList });
      embeddings = before - (await this.#countEmbeddings(hashList));
    }
    return { total: nodeIds.length, byType, edges, vectors, embeddings };
  }

  async #countEmbeddings(hashes: readonly string[]): Promise<number> {
    let n = 0;
    for (const chunk of jsonChunks(hashes)) {
      const row = await this.#db
        .prepare(
          "SELECT count(*) AS n FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?1))",
        )
        .bind(chunk)
        .first<{ n: number }>();
      n += row?.n ?? 0;
    }
    return n;
  }
}
