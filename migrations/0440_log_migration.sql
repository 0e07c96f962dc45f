-- The owner's copy of each chat's message log from D1 into the chat's object
-- (docs/storage.md#moving-the-log-into-the-chat-objects): one row per chat with D1 messages.
-- `last_seq` is the cursor (the last D1 seq whose page the object took), `copied` the rows sent
-- up to it, `d1_count` D1's rows of the chat at the last count, `state` where the chat stands
-- (`skipped`: its object already held its whole log), `detail` why a chat did not verify.
-- Read and written by the admin API only; a chat turn never reads it.
CREATE TABLE log_migration (
  chat_key   TEXT PRIMARY KEY,
  last_seq   INTEGER NOT NULL DEFAULT 0,
  copied     INTEGER NOT NULL DEFAULT 0,
  d1_count   INTEGER NOT NULL DEFAULT 0,
  state      TEXT NOT NULL DEFAULT 'copying' CHECK (state IN ('copying', 'verified', 'mismatch', 'skipped')),
  detail     TEXT,
  updated_at INTEGER NOT NULL
);
-- A page of one chat's rows by seq reads only that page (messages_chat_ts orders by time, so
-- each page would sort the chat's whole log). Goes when the D1 log is deleted.
CREATE INDEX messages_chat_seq ON messages (chat_key, seq);
