/**
 * D1 side of the daily summaries: reads one chat-day of the message log, and writes the
 * summary node (node_type and kind `summary`, the chat's own scope, not portable) together
 * with its `summary_days` record and usage row in one batch. The node id is per (chat, day)
 * and every insert is ON CONFLICT DO NOTHING, so a repeated or concurrent run writes once.
 */
import type {
  ChatDayRecord,
  DailySummaryStore,
  PendingChatDay,
} from "../../domain/summary/daily-summary-store";
import type { DayMessage } from "../../domain/summary/day-message";
import { indexText } from "../../domain/text/search-tokens";
import { memoryContentHash } from "./memory-content-hash";

type MessageRow = {
  message_id: string;
  ts: number;
  user_id: string | null;
  nick: string | null;
  text: string;
  reply_to: string | null;
  direction: "in" | "out";
};

export class D1DailySummaries implements DailySummaryStore {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  /**
   * Chats with messages in the local day [start, end) and no summary of it yet, from the log's
   * hourly counts (migration 0450; d1-admin-stats.ts says why hours): D1's `messages` no longer
   * holds the chats whose log lives in their objects.
   */
  async pendingChats(day: string, start: number, end: number, limit: number): Promise<PendingChatDay[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT k.chat_key AS chatKey, sum(k.messages) AS messages FROM chat_log_counts k
         WHERE k.hour >= ? AND k.hour < ? AND k.messages > 0
           AND NOT EXISTS (SELECT 1 FROM summary_days d WHERE d.chat_key = k.chat_key AND d.day = ?)
         GROUP BY k.chat_key ORDER BY k.chat_key LIMIT ?`,
      )
      .bind(start, end, day, limit)
      .all<PendingChatDay>();
    return results;
  }

  async dayMessages(
    chatKey: string,
    start: number,
    end: number,
    limit: number,
    leftOut: readonly string[] = [],
  ): Promise<DayMessage[]> {
    const { results } = await this.#db
      .prepare(
        `SELECT message_id, ts, user_id, nick, text, reply_to, direction FROM messages
         WHERE chat_key = ? AND ts >= ? AND ts < ? AND recalled = 0 AND private_marked = 0
           AND (account_key IS NULL OR account_key NOT IN (SELECT value FROM json_each(?)))
         ORDER BY ts DESC, seq DESC LIMIT ?`,
      )
      .bind(chatKey, start, end, JSON.stringify(leftOut), limit)
      .all<MessageRow>();
    return results.reverse().map((r) => ({
      messageId: r.message_id,
      ts: r.ts,
      userId: r.user_id,
      nick: r.nick,
      text: r.text,
      replyTo: r.reply_to,
      direction: r.direction,
    }));
  }

  async record(r: ChatDayRecord): Promise<void> {
    const s = r.summary;
    const statements: D1PreparedStatement[] = [];
    if (s) {
      const provenance = {
        session: s.chatKey,
        messageIds: s.messageIds.slice(0, 50),
        origin: "daily-summary",
        day: s.day,
        method: s.method,
      };
      statements.push(
        this.#db
          .prepare(
            `INSERT INTO nodes (node_id, node_type, source_type, source_id, scope_type, scope_id, kind, title, raw_text,
               retrieval_text, retrieval_tokens, metadata, provenance, importance, confidence, sensitivity,
               sensitivity_source, portable, status, content_hash, created_at, updated_at)
             VALUES (?, 'summary', 'conversation', ?, 'chat', ?, 'summary', ?, ?, ?, ?, ?, ?, 0.5, 0.8, ?, ?, 0, 'active', ?, ?, ?)
             ON CONFLICT (node_id) DO NOTHING`,
          )
          .bind(
            s.nodeId,
            s.chatKey,
            s.chatKey,
            `${s.day} 摘要`,
            s.text,
            s.text,
            indexText(s.text),
            JSON.stringify({ day: s.day, method: s.method, messages: s.messageCount, portable: false }),
            JSON.stringify(provenance),
            s.sensitivity,
            s.sensitivitySource,
            await memoryContentHash(s.text),
            r.dayEnd,
            r.at,
          ),
      );
    }
    statements.push(
      this.#db
        .prepare(
          `INSERT INTO summary_days (chat_key, day, status, node_id, method, reason, messages, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chat_key, day) DO NOTHING`,
        )
        .bind(
          r.chatKey,
          r.day,
          s ? "written" : "skipped",
          s?.nodeId ?? null,
          s?.method ?? null,
          r.skipped,
          s?.messageCount ?? 0,
          r.at,
        ),
    );
    if (r.usage) {
      const u = r.usage;
      statements.push(
        this.#db
          .prepare(
            `INSERT INTO model_usage (dedupe_key, chat_key, provider, model, purpose, prompt_tokens, completion_tokens,
               latency_ms, ok, error_kind, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
          )
          .bind(
            `summary:${r.chatKey}:${r.day}:${u.at}`,
            u.chatKey,
            u.provider,
            u.model,
            u.purpose,
            u.promptTokens,
            u.completionTokens,
            u.latencyMs,
            u.ok ? 1 : 0,
            u.errorKind,
            u.at,
          ),
      );
    }
    await this.#db.batch(statements);
  }
}
