-- The chats whose old D1 log rows the owner deleted after their copy in the chat's object was
-- verified (docs/storage.md#moving-the-log-into-the-chat-objects), with how many and who asked.
-- A chat listed here has no D1 copy to fall back on: a rollback leaves it in its object.
CREATE TABLE log_d1_deleted (
  chat_key   TEXT PRIMARY KEY,
  rows       INTEGER NOT NULL,
  deleted_at INTEGER NOT NULL,
  deleted_by TEXT
);
