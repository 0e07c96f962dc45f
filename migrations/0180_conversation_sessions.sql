-- Conversation trees over the live message log (docs: README "Conversation trees"): each
-- chat's log is cut into conversation sessions — a session ends after 30 minutes
-- (1,800,000 ms, CONVERSATION_GAP_MS in src/domain/history/conversation-sessions.ts) without
-- a message — and every message gets a turn window: its own tokens with those of the turn
-- before and the turn after it in the same session (each neighbour cut to its first 1,200
-- characters of tokens), indexed in its own FTS table. History search matches the windows, so
-- "Where did she go?" → "Paris!" is found by both halves, as the LoCoMo conversation trees do.
-- Triggers keep both true for every path that writes, recalls or deletes messages (the chat
-- object's flush, backfill, retention, forget) without a read on any request path; messages
-- logged before this migration are windowed and segmented by a bounded, resumable backfill
-- (conversation_backfill below, run from the cron).

CREATE TABLE conversation_sessions (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  chat_key   TEXT NOT NULL,
  -- The seq of the session's first and last message in reading order (ts, then seq).
  first_seq  INTEGER NOT NULL,
  last_seq   INTEGER NOT NULL,
  first_ts   INTEGER NOT NULL,
  last_ts    INTEGER NOT NULL,
  messages   INTEGER NOT NULL
);
-- Lookups go by the end of a session ("a session ending at most the gap before this message"):
-- a range on last_ts reads only a chat's latest sessions, however many it has.
CREATE INDEX conversation_sessions_chat_last ON conversation_sessions (chat_key, last_ts);
-- And by the start, for deletes, which come oldest first (retention).
CREATE INDEX conversation_sessions_chat_first ON conversation_sessions (chat_key, first_ts);

-- One row per non-recalled message: the chat-prefixed tokens of the previous turn, the
-- message and the next turn (neighbours within the gap only).
CREATE TABLE message_windows (
  seq     INTEGER PRIMARY KEY,
  tokens  TEXT NOT NULL
);
CREATE VIRTUAL TABLE message_windows_fts USING fts5(
  tokens, content = 'message_windows', content_rowid = 'seq', tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO message_windows_fts (message_windows_fts, rank) VALUES ('automerge', 2);
INSERT INTO message_windows_fts (message_windows_fts, rank) VALUES ('crisismerge', 4);
CREATE TRIGGER message_windows_fts_ai AFTER INSERT ON message_windows BEGIN
  INSERT INTO message_windows_fts (rowid, tokens) VALUES (new.seq, new.tokens);
END;
CREATE TRIGGER message_windows_fts_ad AFTER DELETE ON message_windows BEGIN
  INSERT INTO message_windows_fts (message_windows_fts, rowid, tokens) VALUES ('delete', old.seq, old.tokens);
END;

-- The window text of every non-recalled message, computed from the log: the previous and next
-- non-recalled message of the same chat no more than the gap away.
CREATE VIEW message_window_text AS
SELECT m.seq AS seq, trim(
  coalesce((SELECT substr(p.tokens, 1, 1200) FROM messages p
            WHERE p.chat_key = m.chat_key AND p.recalled = 0 AND p.ts >= m.ts - 1800000
              AND (p.ts < m.ts OR (p.ts = m.ts AND p.seq < m.seq))
            ORDER BY p.ts DESC, p.seq DESC LIMIT 1), '')
  || ' ' || m.tokens || ' ' ||
  coalesce((SELECT substr(n.tokens, 1, 1200) FROM messages n
            WHERE n.chat_key = m.chat_key AND n.recalled = 0 AND n.ts <= m.ts + 1800000
              AND (n.ts > m.ts OR (n.ts = m.ts AND n.seq > m.seq))
            ORDER BY n.ts, n.seq LIMIT 1), '')) AS tokens
FROM messages m WHERE m.recalled = 0;

-- The neighbours (previous, next) of a position in a chat, for the triggers below.
CREATE VIEW message_neighbours AS
SELECT c.seq AS centre,
  (SELECT p.seq FROM messages p
   WHERE p.chat_key = c.chat_key AND p.recalled = 0 AND p.ts >= c.ts - 1800000
     AND (p.ts < c.ts OR (p.ts = c.ts AND p.seq < c.seq))
   ORDER BY p.ts DESC, p.seq DESC LIMIT 1) AS prev_seq,
  (SELECT n.seq FROM messages n
   WHERE n.chat_key = c.chat_key AND n.recalled = 0 AND n.ts <= c.ts + 1800000
     AND (n.ts > c.ts OR (n.ts = c.ts AND n.seq > c.seq))
   ORDER BY n.ts, n.seq LIMIT 1) AS next_seq
FROM messages c;

-- A new message joins the latest session of its chat that it falls within the gap of
-- (extending its span), else opens a new one; then its window and its neighbours' are rebuilt.
CREATE TRIGGER conversation_sessions_ai AFTER INSERT ON messages BEGIN
  UPDATE conversation_sessions SET
    first_seq = CASE WHEN new.ts < first_ts THEN new.seq ELSE first_seq END,
    last_seq = CASE WHEN new.ts >= last_ts THEN new.seq ELSE last_seq END,
    first_ts = min(first_ts, new.ts),
    last_ts = max(last_ts, new.ts),
    messages = messages + 1
  WHERE id = (SELECT s.id FROM conversation_sessions s
              WHERE s.chat_key = new.chat_key AND s.last_ts >= new.ts - 1800000 AND s.first_ts <= new.ts + 1800000
              ORDER BY s.last_ts DESC LIMIT 1);
  INSERT INTO conversation_sessions (chat_key, first_seq, last_seq, first_ts, last_ts, messages)
  SELECT new.chat_key, new.seq, new.seq, new.ts, new.ts, 1
  WHERE NOT EXISTS (SELECT 1 FROM conversation_sessions s
                    WHERE s.chat_key = new.chat_key AND s.last_ts >= new.ts AND s.first_ts <= new.ts);
  -- A message that closes the gap between two sessions (history filled in later, out of
  -- order) merges them: no two sessions of a chat are ever within the gap of each other.
  UPDATE conversation_sessions SET
    messages = messages + (SELECT sum(y.messages) FROM conversation_sessions y
                           WHERE y.chat_key = conversation_sessions.chat_key AND y.id <> conversation_sessions.id
                             AND y.first_ts <= conversation_sessions.last_ts + 1800000
                             AND y.last_ts >= conversation_sessions.first_ts - 1800000),
    first_seq = coalesce((SELECT y.first_seq FROM conversation_sessions y
                          WHERE y.chat_key = conversation_sessions.chat_key AND y.id <> conversation_sessions.id
                            AND y.first_ts < conversation_sessions.first_ts
                            AND y.last_ts >= conversation_sessions.first_ts - 1800000), first_seq),
    first_ts = coalesce((SELECT min(y.first_ts) FROM conversation_sessions y
                         WHERE y.chat_key = conversation_sessions.chat_key AND y.id <> conversation_sessions.id
                           AND y.first_ts < conversation_sessions.first_ts
                           AND y.last_ts >= conversation_sessions.first_ts - 1800000), first_ts),
    last_seq = coalesce((SELECT y.last_seq FROM conversation_sessions y
                         WHERE y.chat_key = conversation_sessions.chat_key AND y.id <> conversation_sessions.id
                           AND y.last_ts > conversation_sessions.last_ts
                           AND y.first_ts <= conversation_sessions.last_ts + 1800000), last_seq),
    last_ts = coalesce((SELECT max(y.last_ts) FROM conversation_sessions y
                        WHERE y.chat_key = conversation_sessions.chat_key AND y.id <> conversation_sessions.id
                          AND y.last_ts > conversation_sessions.last_ts
                          AND y.first_ts <= conversation_sessions.last_ts + 1800000), last_ts)
  WHERE id = (SELECT s.id FROM conversation_sessions s
              WHERE s.chat_key = new.chat_key AND s.last_ts >= new.ts AND s.first_ts <= new.ts
              ORDER BY s.last_ts DESC LIMIT 1)
    AND EXISTS (SELECT 1 FROM conversation_sessions y
                WHERE y.chat_key = conversation_sessions.chat_key AND y.id <> conversation_sessions.id
                  AND y.first_ts <= conversation_sessions.last_ts + 1800000
                  AND y.last_ts >= conversation_sessions.first_ts - 1800000);
  DELETE FROM conversation_sessions
  WHERE chat_key = new.chat_key
    AND id <> (SELECT s.id FROM conversation_sessions s
               WHERE s.chat_key = new.chat_key AND s.last_ts >= new.ts AND s.first_ts <= new.ts
               ORDER BY s.last_ts DESC LIMIT 1)
    AND EXISTS (SELECT 1 FROM conversation_sessions x
                WHERE x.chat_key = new.chat_key AND x.last_ts >= new.ts AND x.first_ts <= new.ts
                  AND x.id <> conversation_sessions.id
                  AND conversation_sessions.first_ts <= x.last_ts + 1800000
                  AND conversation_sessions.last_ts >= x.first_ts - 1800000);
END;

CREATE TRIGGER message_windows_ai AFTER INSERT ON messages WHEN new.recalled = 0 BEGIN
  DELETE FROM message_windows WHERE seq IN (
    SELECT value FROM (SELECT new.seq AS value UNION ALL SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
                       UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq));
  INSERT INTO message_windows (seq, tokens)
  SELECT seq, tokens FROM message_window_text WHERE seq IN (
    SELECT value FROM (SELECT new.seq AS value UNION ALL SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
                       UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq));
END;

-- A recalled message leaves the index, its own window and its neighbours' windows alike.
CREATE TRIGGER message_windows_recalled AFTER UPDATE OF recalled ON messages
WHEN new.recalled <> 0 AND old.recalled = 0 BEGIN
  DELETE FROM message_windows WHERE seq IN (
    SELECT value FROM (SELECT new.seq AS value UNION ALL SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
                       UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq));
  INSERT INTO message_windows (seq, tokens)
  SELECT seq, tokens FROM message_window_text WHERE seq IN (
    SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
    UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq);
END;

-- A deleted message (retention, forget) leaves its window, and its neighbours' windows are
-- rebuilt without it, so no index row keeps text the log no longer holds; its session shrinks
-- to the messages left, or goes with the last of them.
CREATE TRIGGER message_windows_ad AFTER DELETE ON messages BEGIN
  DELETE FROM message_windows WHERE seq = old.seq;
  DELETE FROM message_windows WHERE seq IN (
    SELECT (SELECT p.seq FROM messages p
            WHERE p.chat_key = old.chat_key AND p.recalled = 0 AND p.ts >= old.ts - 1800000
              AND (p.ts < old.ts OR (p.ts = old.ts AND p.seq < old.seq))
            ORDER BY p.ts DESC, p.seq DESC LIMIT 1)
    UNION ALL
    SELECT (SELECT n.seq FROM messages n
            WHERE n.chat_key = old.chat_key AND n.recalled = 0 AND n.ts <= old.ts + 1800000
              AND (n.ts > old.ts OR (n.ts = old.ts AND n.seq > old.seq))
            ORDER BY n.ts, n.seq LIMIT 1));
  INSERT INTO message_windows (seq, tokens)
  SELECT seq, tokens FROM message_window_text WHERE seq IN (
    SELECT (SELECT p.seq FROM messages p
            WHERE p.chat_key = old.chat_key AND p.recalled = 0 AND p.ts >= old.ts - 1800000
              AND (p.ts < old.ts OR (p.ts = old.ts AND p.seq < old.seq))
            ORDER BY p.ts DESC, p.seq DESC LIMIT 1)
    UNION ALL
    SELECT (SELECT n.seq FROM messages n
            WHERE n.chat_key = old.chat_key AND n.recalled = 0 AND n.ts <= old.ts + 1800000
              AND (n.ts > old.ts OR (n.ts = old.ts AND n.seq > old.seq))
            ORDER BY n.ts, n.seq LIMIT 1));
  UPDATE conversation_sessions SET
    messages = messages - 1,
    first_ts = coalesce((SELECT min(m.ts) FROM messages m
                         WHERE m.chat_key = old.chat_key AND m.ts BETWEEN first_ts AND last_ts), first_ts),
    last_ts = coalesce((SELECT max(m.ts) FROM messages m
                        WHERE m.chat_key = old.chat_key AND m.ts BETWEEN first_ts AND last_ts), last_ts)
  WHERE chat_key = old.chat_key AND old.ts BETWEEN first_ts AND last_ts;
  UPDATE conversation_sessions SET
    first_seq = coalesce((SELECT m.seq FROM messages m WHERE m.chat_key = old.chat_key AND m.ts = first_ts
                          ORDER BY m.seq LIMIT 1), first_seq),
    last_seq = coalesce((SELECT m.seq FROM messages m WHERE m.chat_key = old.chat_key AND m.ts = last_ts
                         ORDER BY m.seq DESC LIMIT 1), last_seq)
  WHERE chat_key = old.chat_key AND (first_seq = old.seq OR last_seq = old.seq);
  DELETE FROM conversation_sessions WHERE chat_key = old.chat_key AND messages <= 0;
END;

-- Messages logged before this migration: windowed and segmented by the cron in bounded steps,
-- each chat in reading order from its cursor (chat, ts, seq) up to the watermark — the last
-- seq this migration saw; later messages are the triggers' work.
CREATE TABLE conversation_backfill (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  watermark  INTEGER NOT NULL,
  -- The last message windowed and segmented, in (chat_key, ts, seq) order; NULL = not started.
  chat_key   TEXT,
  ts         INTEGER,
  seq        INTEGER,
  done       INTEGER NOT NULL DEFAULT 0
);
INSERT INTO conversation_backfill (id, watermark, done)
SELECT 1, coalesce(max(seq), 0), CASE WHEN max(seq) IS NULL THEN 1 ELSE 0 END FROM messages;
