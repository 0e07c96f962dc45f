/**
 * `/session export` (docs/sessions.md): one chat's memory items and summaries from D1, and on
 * request the latest EXPORT_LOG_LIMIT messages of its log, oldest first, from wherever `log`
 * reads it (the chat's object; `exportChatLog` over the object's SQLite or D1).
 */
import type { ExportData, ExportMessage } from "../../domain/sessions/session-registry";

const EXPORT_LOG_LIMIT = 5000;

/** Where an export reads a chat's log. */
export type ExportLogSource = (chatKey: string) => Promise<readonly ExportMessage[]>;

export async function exportChatData(
  db: D1Database,
  chatKey: string,
  withLog: boolean,
  log: ExportLogSource = (key) => exportChatLog(db, key),
): Promise<ExportData> {
  const { results } = await db
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
  return { ...data, log: await log(chatKey) };
}

/** The chat's latest EXPORT_LOG_LIMIT messages, oldest first, from a log with D1's tables. */
export async function exportChatLog(db: D1Database, chatKey: string): Promise<ExportMessage[]> {
  const { results } = await db
    .prepare(
      `SELECT ts, direction, nick, text FROM (SELECT * FROM messages WHERE chat_key = ?1 ORDER BY ts DESC, seq DESC LIMIT ?2)
       ORDER BY ts, seq`,
    )
    .bind(chatKey, EXPORT_LOG_LIMIT)
    .all<ExportMessage>();
  return results;
}
