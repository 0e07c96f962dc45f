/**
 * The chat log's message counts per hour, kept by triggers on the object's `messages`, so every
 * write of the log (an append, a copy of D1's rows, retention's cut, a forget) keeps them true.
 * D1 gets them instead of the rows (log-counts.ts, migration 0450): the dashboard's totals and
 * its chart of messages per local day, and the daily summaries' choice of chats, sum hours.
 * Hours, not days: a local day is a run of whole hours in every whole-hour zone, so a sum over
 * [day start, day end) is exact; in a half-hour zone a day's edge is off by up to 30 minutes,
 * in these counts only (the log itself is read by its real times). `dirty`: changed since D1
 * last took the bucket's count. Existing rows are counted once here, all dirty.
 */
export const CHAT_LOG_COUNTS_SCHEMA = `
CREATE TABLE log_counts (
  chat_key TEXT NOT NULL,
  hour     INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  dirty    INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (chat_key, hour)
) WITHOUT ROWID;
CREATE INDEX log_counts_dirty ON log_counts (chat_key, hour) WHERE dirty = 1;
CREATE TRIGGER log_counts_ai AFTER INSERT ON messages BEGIN
  INSERT INTO log_counts (chat_key, hour, messages, dirty) VALUES (new.chat_key, (new.ts / 3600000) * 3600000, 1, 1)
  ON CONFLICT (chat_key, hour) DO UPDATE SET messages = messages + 1, dirty = 1;
END;
CREATE TRIGGER log_counts_ad AFTER DELETE ON messages BEGIN
  UPDATE log_counts SET messages = messages - 1, dirty = 1
  WHERE chat_key = old.chat_key AND hour = (old.ts / 3600000) * 3600000;
END;
INSERT INTO log_counts (chat_key, hour, messages, dirty)
SELECT chat_key, (ts / 3600000) * 3600000, count(*), 1 FROM messages GROUP BY 1, 2;
`;
