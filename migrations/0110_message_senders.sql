-- The display names each chat's messages were sent under, with how many messages carry each
-- name: history search reads a sender named in a question ("小明上周说了什么") against this
-- small table instead of scanning the chat's log, and filters the log by the name found.
-- Kept by triggers on the log, so every path that writes or deletes messages keeps it true.
CREATE TABLE message_senders (
  chat_key  TEXT NOT NULL,
  nick      TEXT NOT NULL,
  messages  INTEGER NOT NULL,
  last_ts   INTEGER NOT NULL,
  PRIMARY KEY (chat_key, nick)
) WITHOUT ROWID;

INSERT INTO message_senders (chat_key, nick, messages, last_ts)
SELECT chat_key, nick, count(*), max(ts) FROM messages WHERE nick IS NOT NULL AND nick <> ''
GROUP BY chat_key, nick;

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

-- The sender filter reads one chat's messages by one name in time order.
CREATE INDEX messages_chat_nick_ts ON messages (chat_key, nick, ts);
