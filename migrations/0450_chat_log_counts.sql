-- The message log's counts per chat and hour, and each chat's last message: what the
-- dashboard's totals, its chart of messages per local day, the kept messages per chat type and
-- the daily summaries' choice of chats read instead of counting `messages`, which does not
-- receive the rows of a chat whose log lives in its object. Hours (UTC epoch ms floored to the
-- hour): a local day of a whole-hour zone is a run of whole hours, so its sum is exact; in a
-- half-hour zone a day's edge is off by up to 30 minutes, in these counts only.
--
-- One source per chat: while a chat's log is read from D1 (every message of it reaches D1),
-- the triggers below count D1's rows; once it lives in the chat's object (`in_object` = 1), the
-- object counts its own rows by trigger and its flush sets the changed hours' absolute counts
-- here (src/durable-objects/chat-log-counts-schema.ts), and these triggers leave the chat alone.
CREATE TABLE chat_log_counts (
  chat_key TEXT NOT NULL,
  hour     INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  PRIMARY KEY (chat_key, hour)
) WITHOUT ROWID;
-- A local day's total across chats reads that day's hours, not every chat's rows.
CREATE INDEX chat_log_counts_hour ON chat_log_counts (hour);
CREATE TABLE chat_log_summary (
  chat_key        TEXT PRIMARY KEY,
  last_message_at INTEGER,
  in_object       INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
-- What D1's log holds today, so the counts are right from the first day; walked in the order
-- of the (chat_key, ts) index.
INSERT INTO chat_log_counts (chat_key, hour, messages)
SELECT chat_key, (ts / 3600000) * 3600000, count(*) FROM messages GROUP BY chat_key, ts / 3600000;
INSERT INTO chat_log_summary (chat_key, last_message_at)
SELECT chat_key, max(ts) FROM messages GROUP BY chat_key;
-- A row dropped by a BEFORE INSERT trigger (store off, do-not-record) or by ON CONFLICT DO
-- NOTHING fires none of these.
CREATE TRIGGER chat_log_counts_ai AFTER INSERT ON messages
WHEN NOT EXISTS (SELECT 1 FROM chat_log_summary s WHERE s.chat_key = new.chat_key AND s.in_object = 1)
BEGIN
  INSERT INTO chat_log_counts (chat_key, hour, messages) VALUES (new.chat_key, (new.ts / 3600000) * 3600000, 1)
  ON CONFLICT (chat_key, hour) DO UPDATE SET messages = messages + 1;
  INSERT INTO chat_log_summary (chat_key, last_message_at) VALUES (new.chat_key, new.ts)
  ON CONFLICT (chat_key) DO UPDATE SET last_message_at = max(coalesce(last_message_at, excluded.last_message_at), excluded.last_message_at);
END;
CREATE TRIGGER chat_log_counts_ad AFTER DELETE ON messages
WHEN NOT EXISTS (SELECT 1 FROM chat_log_summary s WHERE s.chat_key = old.chat_key AND s.in_object = 1)
BEGIN
  UPDATE chat_log_counts SET messages = messages - 1
  WHERE chat_key = old.chat_key AND hour = (old.ts / 3600000) * 3600000;
  DELETE FROM chat_log_counts
  WHERE chat_key = old.chat_key AND hour = (old.ts / 3600000) * 3600000 AND messages <= 0;
  UPDATE chat_log_summary SET last_message_at = (SELECT max(m.ts) FROM messages m WHERE m.chat_key = old.chat_key)
  WHERE chat_key = old.chat_key AND last_message_at <= old.ts;
END;
