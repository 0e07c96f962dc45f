/**
 * Message-log retention, run from the cron trigger: deletes rows older than their chat's
 * retention (per-chat override, else the default for the chat's type) in chunks, because D1
 * wants large deletes split (the FTS delete trigger runs per row).
 */
import type { Settings } from "../../domain/config/settings";

const CHUNK = 1000;
const DAY_MS = 86_400_000;

export type RetentionReport = {
  readonly deleted: number;
  readonly chunks: number;
  readonly complete: boolean;
};

/**
 * Deletes expired rows until none remain or `maxChunks` chunks ran (the next run continues).
 * Rows of chats without a registry row use the group default, the shorter one.
 */
export async function applyRetention(
  db: D1Database,
  settings: Settings,
  now: number,
  maxChunks = 50,
): Promise<RetentionReport> {
  const statement = db.prepare(
    `DELETE FROM messages WHERE seq IN (
       SELECT m.seq FROM messages m LEFT JOIN chats c ON c.chat_key = m.chat_key
       WHERE m.ts < ?1 - ?2 * COALESCE(c.retention_days,
               CASE WHEN c.target_type IN ('private', 'dm') THEN ?3 ELSE ?4 END)
       LIMIT ?5)`,
  );
  let deleted = 0;
  let chunks = 0;
  while (chunks < maxChunks) {
    const result = await statement
      .bind(now, DAY_MS, settings.retention.privateDays, settings.retention.groupDays, CHUNK)
      .run();
    chunks++;
    const changed = result.meta.changes ?? 0;
    deleted += changed;
    if (changed < CHUNK) return { deleted, chunks, complete: true };
  }
  return { deleted, chunks, complete: false };
}

/** One chat's retention override (`chats.retention_days`), null when unset or the chat is unknown. */
export async function retentionOverrideOf(db: D1Database, chatKey: string): Promise<number | null> {
  const row = await db
    .prepare("SELECT retention_days FROM chats WHERE chat_key = ?1")
    .bind(chatKey)
    .first<{ retention_days: number | null }>();
  return row?.retention_days ?? null;
}
