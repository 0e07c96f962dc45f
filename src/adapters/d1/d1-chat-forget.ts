/**
 * `/session forget` over D1 (docs/sessions.md#forget). It keeps the registry row, `model_usage`,
 * the audit log and the chat's `summary_days` records, none of which holds message text.
 */
import type { ForgetCounts } from "../../domain/sessions/session-registry";
import { type AfterRemoval, deleteMessages, deleteNodes } from "./d1-chunked-deletes";

/**
 * Deletes, in chunks, every row of this chat: its messages (the FTS trigger removes their
 * index rows), its chat-scope nodes — memory, summaries, episodes — with their FTS rows and
 * edges, its dreaming candidates and runs, its observations; then the vectors and the
 * embeddings no other node shares. Other chats' rows are never touched: every statement is
 * keyed by this chat.
 */
export async function forgetChat(
  db: D1Database,
  chatKey: string,
  afterRemoval: AfterRemoval,
): Promise<ForgetCounts> {
  // Counted from the selected rows: D1's `changes` also counts what the FTS trigger wrote.
  // The log's triggers remove the conversation sessions and turn windows with the messages;
  // they are counted first, and whatever a trigger left is deleted by chat below.
  const [sessionRows, windowRows] = await db.batch<{ n: number }>([
    db.prepare("SELECT count(*) AS n FROM conversation_sessions WHERE chat_key = ?1").bind(chatKey),
    db
      .prepare(
        "SELECT count(*) AS n FROM message_windows w JOIN messages m ON m.seq = w.seq WHERE m.chat_key = ?1",
      )
      .bind(chatKey),
  ]);
  const messages = await deleteMessages(db, "chat_key = ?1", chatKey);
  const nodes = await deleteNodes(db, "scope_type = 'chat' AND scope_id = ?1", [chatKey], afterRemoval);
  const [candidates, runs, observations] = await db.batch([
    db.prepare("DELETE FROM memory_candidates WHERE chat_key = ?1").bind(chatKey),
    db.prepare("DELETE FROM memory_runs WHERE chat_key = ?1").bind(chatKey),
    db.prepare("DELETE FROM account_observations WHERE chat_key = ?1").bind(chatKey),
    db.prepare("DELETE FROM conversation_sessions WHERE chat_key = ?1").bind(chatKey),
    // A OneBot group's backfill (not started, running or failed) would fetch the forgotten
    // history again: its record is closed. It holds no message text, like summary_days.
    db
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
