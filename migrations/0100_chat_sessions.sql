-- The session registry (docs/sessions.md): one row per chat with its short session id, alias,
-- cluster and storage switch. Retention per chat stays in chats.retention_days. Rows for chats
-- that existed before this table are backfilled by the registry on its first read, because the
-- id is a hash of the chat key that SQL cannot compute.

CREATE TABLE chat_sessions (
  chat_key      TEXT PRIMARY KEY,
  -- `s_` + the first 10 hex digits of the chat key's content hash: stable, derivable anywhere.
  session_id    TEXT NOT NULL UNIQUE,
  alias         TEXT COLLATE NOCASE UNIQUE,
  -- Chats with the same cluster read each other's memory; a chat alone is its own cluster
  -- (cluster_id = session_id).
  cluster_id    TEXT NOT NULL,
  store_enabled INTEGER NOT NULL DEFAULT 1 CHECK (store_enabled IN (0, 1)),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX chat_sessions_cluster ON chat_sessions (cluster_id);

-- store_enabled = 0 stores nothing of that chat: every writer of the log, memory, summaries,
-- candidates and observations goes through these tables, so the triggers hold for all of them
-- (the chat object's flush, dreaming, explicit memory, backfill). RAISE(IGNORE) drops the row
-- without failing the rest of the batch; the FTS triggers never see it.
CREATE TRIGGER messages_store_off BEFORE INSERT ON messages
WHEN EXISTS (SELECT 1 FROM chat_sessions s WHERE s.chat_key = new.chat_key AND s.store_enabled = 0)
BEGIN
  SELECT RAISE(IGNORE);
END;

CREATE TRIGGER nodes_store_off BEFORE INSERT ON nodes
WHEN new.node_type IN ('memory', 'summary', 'episode') AND EXISTS (
  SELECT 1 FROM chat_sessions s WHERE s.store_enabled = 0 AND (
    (new.scope_type = 'chat' AND s.chat_key = new.scope_id)
    OR json_extract(new.provenance, '$.session') = s.chat_key
    OR substr(json_extract(new.provenance, '$.session'), 1, length(s.chat_key) + 1) = s.chat_key || ':'))
BEGIN
  SELECT RAISE(IGNORE);
END;

CREATE TRIGGER memory_candidates_store_off BEFORE INSERT ON memory_candidates
WHEN EXISTS (SELECT 1 FROM chat_sessions s WHERE s.chat_key = new.chat_key AND s.store_enabled = 0)
BEGIN
  SELECT RAISE(IGNORE);
END;

CREATE TRIGGER account_observations_store_off BEFORE INSERT ON account_observations
WHEN EXISTS (SELECT 1 FROM chat_sessions s WHERE s.chat_key = new.chat_key AND s.store_enabled = 0)
BEGIN
  SELECT RAISE(IGNORE);
END;
