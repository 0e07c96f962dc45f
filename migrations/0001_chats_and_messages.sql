-- Chat registry, message log with its CJK full-text index, model usage, audit and settings.
-- Timestamps are milliseconds since the Unix epoch.

CREATE TABLE chats (
  chat_key       TEXT PRIMARY KEY,
  channel        TEXT NOT NULL,
  target_type    TEXT NOT NULL CHECK (target_type IN ('private', 'group', 'channel', 'dm', 'unknown')),
  target_id      TEXT NOT NULL,
  title          TEXT,
  -- Groups are stored only when followed; private chats always are.
  followed       INTEGER NOT NULL DEFAULT 0,
  bot_present    INTEGER NOT NULL DEFAULT 1,
  push_enabled   INTEGER NOT NULL DEFAULT 1,
  -- Per-chat retention override in days; NULL = the default for the chat's type.
  retention_days INTEGER CHECK (retention_days IS NULL OR retention_days > 0),
  first_seen     INTEGER NOT NULL,
  last_seen      INTEGER NOT NULL
);
CREATE INDEX chats_last_seen ON chats (last_seen);

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
  recalled    INTEGER NOT NULL DEFAULT 0,
  UNIQUE (transport, chat_key, message_id, ts)
);
CREATE INDEX messages_chat_ts ON messages (chat_key, ts);
CREATE INDEX messages_ts ON messages (ts);

-- Every token in messages.tokens carries its chat's prefix (see chat-search-tokens.ts), so
-- each chat has its own vocabulary inside one FTS index: a search touches only its chat's
-- doclists and bm25 weighs terms by their frequency in that chat, however large the log grows.
CREATE VIRTUAL TABLE messages_fts USING fts5(
  tokens, content = 'messages', content_rowid = 'seq', tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Rows arrive a few at a time, each flush a new FTS segment; merging early keeps the segment
-- count (and so the per-term seeks of every query) low.
INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 2);
INSERT INTO messages_fts (messages_fts, rank) VALUES ('crisismerge', 4);
CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, tokens) VALUES (new.seq, new.tokens);
END;
CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, tokens) VALUES ('delete', old.seq, old.tokens);
END;
CREATE TRIGGER messages_fts_au AFTER UPDATE OF tokens ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, tokens) VALUES ('delete', old.seq, old.tokens);
  INSERT INTO messages_fts (rowid, tokens) VALUES (new.seq, new.tokens);
END;

CREATE TABLE model_usage (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  -- Makes a retried flush idempotent.
  dedupe_key        TEXT NOT NULL UNIQUE,
  chat_key          TEXT,
  provider          TEXT NOT NULL,
  model             TEXT NOT NULL,
  purpose           TEXT NOT NULL,
  prompt_tokens     INTEGER,
  completion_tokens INTEGER,
  latency_ms        INTEGER NOT NULL,
  ok                INTEGER NOT NULL,
  error_kind        TEXT,
  at                INTEGER NOT NULL
);
CREATE INDEX model_usage_at ON model_usage (at);

CREATE TABLE audit_log (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  dedupe_key TEXT UNIQUE,
  at         INTEGER NOT NULL,
  actor      TEXT,
  action     TEXT NOT NULL,
  chat_key   TEXT,
  target     TEXT,
  detail     TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_action ON audit_log (action, at);

-- Behaviour settings edited at run time; merged over the AKASHA_CONFIG var and validated whole.
CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  updated_by TEXT
);
