import { CHAT_LOG_COUNTS_SCHEMA } from "./chat-log-counts-schema";
import { markLogHome } from "./chat-log-home";
import { MARKS_AHEAD_TRIGGERS, REPLY_MARKING_TRIGGERS } from "./chat-log-marking";
import { REWRITTEN_MESSAGE_TRIGGERS } from "./chat-log-rewrites";
import { CHAT_LOG_SCHEMA } from "./chat-log-schema";

/**
 * The chat object's own SQLite schema, as append-only steps. Never edit a step that has
 * shipped; add a new one.
 */
const STEPS = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  // Durable queue of inbound events. Done rows stay (payload cleared) as the dedupe record.
  `CREATE TABLE inbox (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     event_id TEXT NOT NULL UNIQUE,
     message_id TEXT,
     kind TEXT NOT NULL,
     payload TEXT,
     state TEXT NOT NULL CHECK (state IN ('pending', 'replying', 'done')),
     attempts INTEGER NOT NULL DEFAULT 0,
     not_before INTEGER NOT NULL DEFAULT 0,
     received_at INTEGER NOT NULL,
     done_at INTEGER
   )`,
  `CREATE UNIQUE INDEX inbox_message_id ON inbox (message_id) WHERE message_id IS NOT NULL`,
  `CREATE INDEX inbox_state ON inbox (state, seq)`,
  // Replies decided by a turn, sent one by one; a sent reply is never sent again.
  `CREATE TABLE replies (
     inbox_seq INTEGER NOT NULL,
     idx INTEGER NOT NULL,
     text TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('planned', 'sent', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     message_id TEXT,
     sent_at INTEGER,
     error TEXT,
     PRIMARY KEY (inbox_seq, idx)
   )`,
  // Rows waiting for the next D1 flush (message log, recalls, registry, usage, audit).
  `CREATE TABLE outbox (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     kind TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at INTEGER NOT NULL
   )`,
  // Short-term context: the last turns of this chat.
  `CREATE TABLE recent_turns (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
     name TEXT,
     text TEXT NOT NULL,
     ts INTEGER NOT NULL
   )`,
  // Turns waiting for dreaming (long-term consolidation). Not cleared by a session reset;
  // rows leave only after the run that read them committed (or gave up).
  `CREATE TABLE dream_journal (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
     name TEXT,
     account TEXT,
     union_id TEXT,
     message_id TEXT,
     text TEXT NOT NULL,
     ts INTEGER NOT NULL,
     explicit_sensitivity TEXT
   )`,
  // enqueue writes one row and nothing else; the alarm triages it (registry, log, identity,
  // short-term context) later. Rows from before this step were triaged when they arrived.
  `ALTER TABLE inbox ADD COLUMN triaged INTEGER NOT NULL DEFAULT 1`,
  // 0 = an event that needs no turn: done once triaged. Rows from before were all turns.
  `ALTER TABLE inbox ADD COLUMN needs_turn INTEGER NOT NULL DEFAULT 1`,
  `CREATE INDEX inbox_untriaged ON inbox (seq) WHERE triaged = 0`,
  // Every turn reads the newest recent turns and every append trims past the cap: both walk
  // this index instead of sorting the table.
  `CREATE INDEX recent_turns_order ON recent_turns (ts, seq)`,
  // The drain asks for the oldest open row several times per message; done rows (kept a day
  // as dedupe records) would otherwise be walked each time.
  `CREATE INDEX inbox_open ON inbox (seq) WHERE state != 'done'`,
  // Reminders set in this chat (reminders.ts): they speak only here. A row leaves 'open' once,
  // before anything is sent, and its text is cleared then; event_id makes a retried turn set
  // the same reminder again, not a second one.
  `CREATE TABLE reminders (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     event_id TEXT NOT NULL UNIQUE,
     set_by TEXT,
     set_by_name TEXT,
     text TEXT NOT NULL,
     due_at INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     delivery TEXT NOT NULL CHECK (delivery IN ('push', 'next-message')),
     state TEXT NOT NULL CHECK (state IN ('open', 'sent', 'failed', 'cancelled')),
     attempts INTEGER NOT NULL DEFAULT 0,
     fired_at INTEGER,
     message_id TEXT,
     error TEXT,
     chat TEXT NOT NULL,
     transport TEXT NOT NULL
   )`,
  `CREATE INDEX reminders_due ON reminders (delivery, due_at) WHERE state = 'open'`,
  // A notice to the owner rides the reminders' delivery (push, or with the next reply) in the
  // owner's private chat; /reminders neither lists nor cancels it.
  `ALTER TABLE reminders ADD COLUMN kind TEXT NOT NULL DEFAULT 'reminder' CHECK (kind IN ('reminder', 'notice'))`,
  // The chat's message log and its full-text indexes (chat-log-schema.ts).
  CHAT_LOG_SCHEMA,
  // The log's readers skip D1's one-time windowing backfill once it is done; an object's log
  // was windowed by its triggers from its first row, so its backfill is done from the start.
  `CREATE TABLE conversation_backfill (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     watermark INTEGER NOT NULL,
     chat_key TEXT,
     ts INTEGER,
     seq INTEGER,
     done INTEGER NOT NULL DEFAULT 0
   );
   INSERT INTO conversation_backfill (id, watermark, done) VALUES (1, 0, 1)`,
  // The log's message counts per hour, carried to D1 with the flush (chat-log-counts-schema.ts).
  CHAT_LOG_COUNTS_SCHEMA,
  // Whose turn a recent turn is, so that forgetting a person (account-forget.ts) takes their
  // turns out of the short-term context too. Turns kept before this step have none.
  `ALTER TABLE recent_turns ADD COLUMN account TEXT`,
  // A reply whose turn held words that must stay in this chat (turn-privacy.ts) is logged as
  // marked when sent, and kept so in the short-term context. Rows kept before this step: not held.
  `ALTER TABLE replies ADD COLUMN held INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE recent_turns ADD COLUMN held INTEGER NOT NULL DEFAULT 0`,
  // A bot reply near a bare privacy request is marked too (chat-log-schema.ts).
  REPLY_MARKING_TRIGGERS,
  // A bare privacy request marks its speaker's next ten minutes as well (chat-log-schema.ts).
  MARKS_AHEAD_TRIGGERS,
  // A message that is nothing but a value waits, untriaged, for its sender to say what it was
  // (src/domain/privacy/named-afterwards.ts): until this time, or its sender's next message.
  `ALTER TABLE inbox ADD COLUMN held_until INTEGER NOT NULL DEFAULT 0`,
  // A message rewritten after it was logged (named-after-logging.ts) takes its full-text row and
  // turn windows along, its old terms out of the indexes' pages.
  REWRITTEN_MESSAGE_TRIGGERS,
] as const;

/** The step that brought the log into the object: an object older than it has log rows in D1. */
const LOG_STEP = STEPS.indexOf(CHAT_LOG_SCHEMA);

export function migrateChatSession(storage: DurableObjectStorage): void {
  storage.transactionSync(() => {
    storage.sql.exec("CREATE TABLE IF NOT EXISTS _schema (version INTEGER NOT NULL)");
    const from =
      storage.sql.exec<{ version: number }>("SELECT version FROM _schema").toArray()[0]?.version ?? 0;
    // The usual wake: the schema is current, and an object wakes for every burst of
    // messages, so it writes nothing.
    if (from === STEPS.length) return;
    for (const step of STEPS.slice(from)) storage.sql.exec(step);
    // A new object starts its chat's log here; an older one's earlier messages are still in D1
    // until the owner's migration copies them (chat-log-home.ts).
    if (from <= LOG_STEP) markLogHome(storage.sql, from === 0 ? "object" : "d1");
    storage.sql.exec("DELETE FROM _schema");
    storage.sql.exec("INSERT INTO _schema (version) VALUES (?)", STEPS.length);
  });
}
