/**
 * The full-text index over a table's `tokens`, keyed by its `seq`, kept in step on insert and
 * delete: the messages and the turn windows are indexed alike (one tokenizer, the same merge
 * settings), as D1's migrations build both, so the log's SQL readers rank either the same way.
 */
const tokensFts = (table: "messages" | "message_windows"): string =>
  `CREATE VIRTUAL TABLE ${table}_fts USING fts5(
  tokens, content = '${table}', content_rowid = 'seq', tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO ${table}_fts (${table}_fts, rank) VALUES ('automerge', 2);
INSERT INTO ${table}_fts (${table}_fts, rank) VALUES ('crisismerge', 4);
CREATE TRIGGER ${table}_fts_ai AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${table}_fts (rowid, tokens) VALUES (new.seq, new.tokens);
END;
CREATE TRIGGER ${table}_fts_ad AFTER DELETE ON ${table} BEGIN
  INSERT INTO ${table}_fts (${table}_fts, rowid, tokens) VALUES ('delete', old.seq, old.tokens);
END;`;

/**
 * The chat's message log in the chat object's own SQLite: the same tables, indexes, full-text
 * indexes, views and triggers as the D1 log had (migrations 0001, 0110, 0180, 0290, 0310), so
 * that the log's SQL readers (src/adapters/d1/d1-message-*.ts) run over it unchanged. Only the
 * store-off and do-not-record triggers are left out: they read D1's settings and sessions,
 * which the object does not hold; the object applies both rules in code where it writes
 * (local-log.ts). Every row holds this chat only, so the chat-prefixed tokens no longer
 * separate chats; they are kept so that one tokenizer and one query builder serve every log.
 * Why the log lives here: docs/decisions/0471-message-log-in-chat-objects.md.
 */
export const CHAT_LOG_SCHEMA = `
CREATE TABLE messages (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  transport   TEXT NOT NULL,
  chat_key    TEXT NOT NULL,
  message_id  TEXT NOT NULL,
  ts          INTEGER NOT NULL,
  user_id     TEXT,
  account_key TEXT,
  nick        TEXT,
  text        TEXT NOT NULL,
  -- Space-joined application-side tokens (CJK words + bigrams), chat-prefixed; FTS reads these.
  tokens      TEXT NOT NULL,
  raw_json    TEXT,
  direction   TEXT NOT NULL CHECK (direction IN ('in', 'out')),
  recalled    INTEGER NOT NULL DEFAULT 0, reply_to TEXT, private_marked INTEGER NOT NULL DEFAULT 0,
  UNIQUE (transport, chat_key, message_id, ts)
);
CREATE INDEX messages_chat_ts ON messages (chat_key, ts);
CREATE INDEX messages_ts ON messages (ts);
${tokensFts("messages")}
CREATE TRIGGER messages_fts_au AFTER UPDATE OF tokens ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, tokens) VALUES ('delete', old.seq, old.tokens);
  INSERT INTO messages_fts (rowid, tokens) VALUES (new.seq, new.tokens);
END;
CREATE TABLE message_senders (
  chat_key  TEXT NOT NULL,
  nick      TEXT NOT NULL,
  messages  INTEGER NOT NULL,
  last_ts   INTEGER NOT NULL,
  PRIMARY KEY (chat_key, nick)
) WITHOUT ROWID;
CREATE TRIGGER message_senders_ai AFTER INSERT ON messages
WHEN new.nick IS NOT NULL AND new.nick <> '' BEGIN
  INSERT INTO message_senders (chat_key, nick, messages, last_ts) VALUES (new.chat_key, new.nick, 1, new.ts)
  ON CONFLICT (chat_key, nick) DO UPDATE SET messages = messages + 1, last_ts = max(last_ts, excluded.last_ts);
END;
CREATE TRIGGER message_senders_ad AFTER DELETE ON messages
WHEN old.nick IS NOT NULL AND old.nick <> '' BEGIN
  UPDATE message_senders SET messages = messages - 1 WHERE chat_key = old.chat_key AND nick = old.nick;
  DELETE FROM message_senders WHERE chat_key = old.chat_key AND nick = old.nick AND messages <= 0;
END;
CREATE INDEX messages_chat_nick_ts ON messages (chat_key, nick, ts);
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
CREATE INDEX conversation_sessions_chat_last ON conversation_sessions (chat_key, last_ts);
CREATE INDEX conversation_sessions_chat_first ON conversation_sessions (chat_key, first_ts);
CREATE TABLE message_windows (
  seq     INTEGER PRIMARY KEY,
  tokens  TEXT NOT NULL
);
${tokensFts("message_windows")}
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
CREATE VIEW message_window_text AS
SELECT m.seq AS seq, trim(
  coalesce((SELECT CASE WHEN p.private_marked = 0 THEN substr(p.tokens, 1, 1200) ELSE '' END FROM messages p
            WHERE p.chat_key = m.chat_key AND p.recalled = 0 AND p.ts >= m.ts - 1800000
              AND (p.ts < m.ts OR (p.ts = m.ts AND p.seq < m.seq))
            ORDER BY p.ts DESC, p.seq DESC LIMIT 1), '')
  || ' ' || m.tokens || ' ' ||
  coalesce((SELECT CASE WHEN n.private_marked = 0 THEN substr(n.tokens, 1, 1200) ELSE '' END FROM messages n
            WHERE n.chat_key = m.chat_key AND n.recalled = 0 AND n.ts <= m.ts + 1800000
              AND (n.ts > m.ts OR (n.ts = m.ts AND n.seq > m.seq))
            ORDER BY n.ts, n.seq LIMIT 1), '')) AS tokens
FROM messages m WHERE m.recalled = 0;
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
CREATE TRIGGER messages_privacy_marker_ai AFTER INSERT ON messages
WHEN new.private_marked = 2 AND new.direction = 'in' AND coalesce(new.account_key, new.user_id) IS NOT NULL BEGIN
  UPDATE messages SET private_marked = 1
  WHERE chat_key = new.chat_key AND direction = 'in' AND private_marked = 0 AND seq <> new.seq
    AND ts >= new.ts - 600000 AND ts <= new.ts
    AND coalesce(account_key, user_id) = coalesce(new.account_key, new.user_id);
END;
CREATE TRIGGER messages_privacy_marked_later_ai AFTER INSERT ON messages
WHEN new.private_marked = 0 AND new.direction = 'in' AND coalesce(new.account_key, new.user_id) IS NOT NULL BEGIN
  UPDATE messages SET private_marked = 1
  WHERE seq = new.seq AND EXISTS (
    SELECT 1 FROM messages k
    WHERE k.chat_key = new.chat_key AND k.private_marked = 2 AND k.direction = 'in' AND k.seq <> new.seq
      AND k.ts >= new.ts AND k.ts <= new.ts + 600000
      AND coalesce(k.account_key, k.user_id) = coalesce(new.account_key, new.user_id));
END;
CREATE TRIGGER message_windows_marked AFTER UPDATE OF private_marked ON messages
WHEN new.private_marked <> 0 AND old.private_marked = 0 AND new.recalled = 0 BEGIN
  DELETE FROM message_windows WHERE seq IN (
    SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
    UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq);
  INSERT INTO message_windows (seq, tokens)
  SELECT seq, tokens FROM message_window_text WHERE seq IN (
    SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
    UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq);
END;
CREATE INDEX messages_account ON messages (account_key) WHERE account_key IS NOT NULL;
`;
