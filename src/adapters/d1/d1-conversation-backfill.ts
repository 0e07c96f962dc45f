/**
 * Conversation sessions and turn windows for messages logged before the log maintained them
 * (migrations/0180_conversation_sessions.sql): each step reads one page of those messages in
 * reading order per chat (chat, ts, seq) from the cursor, segments it (segmentSessions),
 * extends or opens the chats' sessions, writes the missing windows and moves the cursor — all
 * in one batch, so a failed step writes nothing and the next one repeats it. Messages newer
 * than the watermark are the triggers' work and are never read here.
 */
import {
  CONVERSATION_GAP_MS,
  type SessionPoint,
  segmentSessions,
} from "../../domain/history/conversation-sessions";

export type ConversationBackfillStep = {
  /** Messages this step segmented and windowed. */
  readonly messages: number;
  /** Sessions it opened or extended. */
  readonly sessions: number;
  readonly done: boolean;
};

type State = {
  watermark: number;
  chat_key: string | null;
  ts: number | null;
  seq: number | null;
  done: number;
};

/** Rows of one step: bounded, so a step stays well inside a cron invocation's limits. */
const PAGE = 1000;
/** Sessions of one step (four statements each): a page of lone messages is cut after these. */
const MAX_SPANS = 100;

export class D1ConversationBackfill {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  async done(): Promise<boolean> {
    const state = await this.#state();
    return state === null || state.done !== 0;
  }

  async step(page = PAGE): Promise<ConversationBackfillStep> {
    const state = await this.#state();
    if (state === null || state.done !== 0) return { messages: 0, sessions: 0, done: true };
    const { results: rows } = await this.#db
      .prepare(
        `SELECT seq, chat_key, ts FROM messages
         WHERE seq <= ?1 AND (chat_key > ?2 OR (chat_key = ?2 AND (ts > ?3 OR (ts = ?3 AND seq > ?4))))
         ORDER BY chat_key, ts, seq LIMIT ?5`,
      )
      .bind(state.watermark, state.chat_key ?? "", state.ts ?? Number.MIN_SAFE_INTEGER, state.seq ?? -1, page)
      .all<{ seq: number; chat_key: string; ts: number }>();
    const results = withinSpans(rows, MAX_SPANS);
    const byChat = new Map<string, SessionPoint[]>();
    for (const r of results) {
      const points = byChat.get(r.chat_key) ?? [];
      points.push({ seq: r.seq, ts: r.ts });
      byChat.set(r.chat_key, points);
    }
    const statements: D1PreparedStatement[] = [];
    let sessions = 0;
    for (const [chatKey, points] of byChat) {
      for (const span of segmentSessions(points)) {
        sessions++;
        // ?1 chat, ?2..?6 the span, ?7 the gap: shared by the extend and the insert below.
        const spanValues = [
          chatKey,
          span.firstSeq,
          span.firstTs,
          span.lastSeq,
          span.lastTs,
          span.messages,
          CONVERSATION_GAP_MS,
        ];
        statements.push(
          // The session this span continues (the page or a live message may have opened it).
          this.#db
            .prepare(
              `UPDATE conversation_sessions SET
                 first_seq = CASE WHEN ?3 < first_ts THEN ?2 ELSE first_seq END,
                 last_seq = CASE WHEN ?5 >= last_ts THEN ?4 ELSE last_seq END,
                 first_ts = min(first_ts, ?3), last_ts = max(last_ts, ?5), messages = messages + ?6
               WHERE id = (SELECT s.id FROM conversation_sessions s
                           WHERE s.chat_key = ?1 AND ?3 <= s.last_ts + ?7 AND ?5 >= s.first_ts - ?7
                           ORDER BY s.last_ts DESC LIMIT 1)`,
            )
            .bind(...spanValues),
          this.#db
            .prepare(
              `INSERT INTO conversation_sessions (chat_key, first_seq, last_seq, first_ts, last_ts, messages)
               SELECT ?1, ?2, ?4, ?3, ?5, ?6
               WHERE NOT EXISTS (SELECT 1 FROM conversation_sessions s
                                 WHERE s.chat_key = ?1 AND ?3 <= s.last_ts + ?7 AND ?5 >= s.first_ts - ?7)`,
            )
            .bind(...spanValues),
          ...MERGE.map((sql) => this.#db.prepare(sql).bind(chatKey, span.firstTs, CONVERSATION_GAP_MS)),
        );
      }
    }
    if (results.length > 0) {
      statements.push(
        // Windows the triggers already wrote (next to a newer message) are right and stay.
        this.#db
          .prepare(
            `INSERT INTO message_windows (seq, tokens)
             SELECT w.seq, w.tokens FROM message_window_text w
             WHERE w.seq IN (SELECT value FROM json_each(?1))
               AND NOT EXISTS (SELECT 1 FROM message_windows x WHERE x.seq = w.seq)`,
          )
          .bind(JSON.stringify(results.map((r) => r.seq))),
      );
    }
    const last = results.at(-1);
    const done = rows.length < page;
    statements.push(
      this.#db
        .prepare("UPDATE conversation_backfill SET chat_key = ?1, ts = ?2, seq = ?3, done = ?4 WHERE id = 1")
        .bind(last?.chat_key ?? state.chat_key, last?.ts ?? state.ts, last?.seq ?? state.seq, done ? 1 : 0),
    );
    await this.#db.batch(statements);
    return { messages: results.length, sessions, done };
  }

  async #state(): Promise<State | null> {
    return this.#db
      .prepare("SELECT watermark, chat_key, ts, seq, done FROM conversation_backfill WHERE id = 1")
      .first<State>();
  }
}

/**
 * The merge of the log's insert trigger (migrations/0180), for the session holding ?2 in
 * chat ?1: a span that closes the gap between two sessions joins them into one.
 */
const T = "conversation_sessions";
const NEAR = `y.chat_key = ${T}.chat_key AND y.id <> ${T}.id`;
const HOLDING = "s.chat_key = ?1 AND ?2 >= s.first_ts AND ?2 <= s.last_ts";
const MERGE = [
  `UPDATE ${T} SET
     messages = messages + (SELECT sum(y.messages) FROM ${T} y
                            WHERE ${NEAR} AND y.first_ts <= ${T}.last_ts + ?3 AND y.last_ts >= ${T}.first_ts - ?3),
     first_seq = coalesce((SELECT y.first_seq FROM ${T} y
                           WHERE ${NEAR} AND y.first_ts < ${T}.first_ts AND y.last_ts >= ${T}.first_ts - ?3), first_seq),
     first_ts = coalesce((SELECT min(y.first_ts) FROM ${T} y
                          WHERE ${NEAR} AND y.first_ts < ${T}.first_ts AND y.last_ts >= ${T}.first_ts - ?3), first_ts),
     last_seq = coalesce((SELECT y.last_seq FROM ${T} y
                          WHERE ${NEAR} AND y.last_ts > ${T}.last_ts AND y.first_ts <= ${T}.last_ts + ?3), last_seq),
     last_ts = coalesce((SELECT max(y.last_ts) FROM ${T} y
                         WHERE ${NEAR} AND y.last_ts > ${T}.last_ts AND y.first_ts <= ${T}.last_ts + ?3), last_ts)
   WHERE id = (SELECT s.id FROM ${T} s WHERE ${HOLDING} ORDER BY s.last_ts DESC LIMIT 1)
     AND EXISTS (SELECT 1 FROM ${T} y
                 WHERE ${NEAR} AND y.first_ts <= ${T}.last_ts + ?3 AND y.last_ts >= ${T}.first_ts - ?3)`,
  `DELETE FROM ${T}
   WHERE chat_key = ?1
     AND id <> (SELECT s.id FROM ${T} s WHERE ${HOLDING} ORDER BY s.last_ts DESC LIMIT 1)
     AND EXISTS (SELECT 1 FROM ${T} x
                 WHERE x.chat_key = ?1 AND ?2 >= x.first_ts AND ?2 <= x.last_ts AND x.id <> ${T}.id
                   AND ${T}.first_ts <= x.last_ts + ?3 AND ${T}.last_ts >= x.first_ts - ?3)`,
];

/** The leading rows (ordered by chat, then reading order) that make at most `max` sessions. */
function withinSpans<T extends { chat_key: string; ts: number }>(rows: readonly T[], max: number): T[] {
  let spans = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as T;
    const prev = rows[i - 1];
    const opens = !prev || prev.chat_key !== r.chat_key || r.ts - prev.ts > CONVERSATION_GAP_MS;
    if (opens && ++spans > max) return rows.slice(0, i);
  }
  return [...rows];
}

/** Steps until done or `maxSteps` ran (the next cron run continues). */
export async function runConversationBackfill(
  backfill: D1ConversationBackfill,
  maxSteps: number,
): Promise<{ messages: number; sessions: number; steps: number; done: boolean }> {
  let messages = 0;
  let sessions = 0;
  for (let steps = 0; steps < maxSteps; ) {
    const r = await backfill.step();
    steps++;
    messages += r.messages;
    sessions += r.sessions;
    if (r.done) return { messages, sessions, steps, done: true };
    if (steps >= maxSteps) return { messages, sessions, steps, done: false };
  }
  return { messages, sessions, steps: 0, done: await backfill.done() };
}
