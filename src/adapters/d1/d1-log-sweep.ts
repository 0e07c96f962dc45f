/**
 * D1's message log read again by today's detectors, one page of rows a call
 * (docs/decisions/0990-logs-kept-before-a-detector-read-them.md): every chat's rows that D1 still
 * holds — the whole log of a chat not yet moved into its object, and a moved chat's old rows until
 * they are deleted. Paged by D1's own seq, so a page may hold several chats; log-sweep.ts hides a
 * value only in its own chat's rows. Rewritten rows leave the old terms in no index page: the
 * updates run between secure-delete on and off, as a forget's deletes do (d1-fts-erase.ts).
 */
import { planSweep, READ_BEFORE, type SweepAsk, type SweepPage } from "../../domain/history/log-sweep";
import { type MessageLogRow, recordOfLogRow } from "../../domain/history/message-log-row";
import { erasing, LOG_INDEXES } from "./d1-fts-erase";

type Row = MessageLogRow & { seq: number };

export async function sweepD1LogPage(db: D1Database, ask: SweepAsk): Promise<SweepPage> {
  const [page, before] = await db.batch<Row>([
    db
      .prepare("SELECT * FROM messages WHERE seq > ?1 ORDER BY seq LIMIT ?2")
      .bind(ask.afterSeq, ask.maxRows + READ_BEFORE),
    db
      .prepare("SELECT * FROM messages WHERE seq <= ?1 ORDER BY seq DESC LIMIT ?2")
      .bind(ask.afterSeq, READ_BEFORE),
  ]);
  const rows = page?.results ?? [];
  const earlier = (before?.results ?? []).reverse().map(recordOfLogRow);
  const plan = planSweep(earlier, rows.map(recordOfLogRow), ask.maxRows, ask.mask);
  const updates = plan.rewrite.map(({ index, record: r }) =>
    db
      .prepare("UPDATE messages SET text = ?1, tokens = ?2, raw_json = ?3 WHERE seq = ?4")
      .bind(r.text, r.tokens, r.rawJson, rows[index]?.seq ?? -1),
  );
  if (updates.length > 0) await db.batch(erasing(db, LOG_INDEXES, updates));
  return {
    read: plan.read,
    holding: plan.holding,
    nextSeq: plan.endsAt === null ? null : (rows[plan.endsAt]?.seq ?? null),
  };
}

/** The chat after `after` in the order of their keys (the first when null); null after the last. */
export async function chatAfter(db: D1Database, after: string | null): Promise<string | null> {
  const row = await db
    .prepare("SELECT chat_key FROM chats WHERE chat_key > ?1 ORDER BY chat_key LIMIT 1")
    .bind(after ?? "")
    .first<{ chat_key: string }>();
  return row?.chat_key ?? null;
}

/** How many chats come before `chat` in that order, and how many there are: a sweep's progress. */
export async function chatPosition(
  db: D1Database,
  chat: string | null,
): Promise<{ before: number; total: number }> {
  const row = await db
    .prepare(
      "SELECT (SELECT count(*) FROM chats WHERE chat_key < ?1) AS before, (SELECT count(*) FROM chats) AS total",
    )
    .bind(chat ?? "")
    .first<{ before: number; total: number }>();
  return { before: row?.before ?? 0, total: row?.total ?? 0 };
}
