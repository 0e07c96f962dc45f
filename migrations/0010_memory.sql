-- Long-term memory on the context store (docs/memory.md, docs/storage.md#nodes): indexes for the scope filters
-- of recall, the mandatory block, de-duplication and supersede, and the dreaming run ledger.
-- The node, edge, FTS, memory_candidates and embeddings tables are in 0002.

-- Mandatory block and dreaming context: a scope's active memory, most important first.
CREATE INDEX nodes_scope_importance ON nodes (scope_type, scope_id, node_type, status, importance DESC, updated_at DESC);

-- De-duplication within one scope: the same normalized text (content_hash) in the same scope.
CREATE INDEX nodes_scope_hash ON nodes (scope_type, scope_id, content_hash) WHERE node_type = 'memory';

-- Supersede: earlier statements of the same subject ("pref:<who>:<object>") in the same scope.
CREATE INDEX nodes_scope_subject ON nodes (scope_type, scope_id, json_extract(metadata, '$.subjectKey'))
  WHERE node_type = 'memory' AND status = 'active';

CREATE INDEX memory_candidates_run ON memory_candidates (run_id);

-- One row per committed dreaming run. The commit inserts its row in the same batch as its
-- items, so a retried run whose first attempt committed fails on this key and writes nothing.
CREATE TABLE memory_runs (
  run_id     TEXT PRIMARY KEY,
  chat_key   TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('dream')),
  turns      INTEGER NOT NULL,
  inserted   INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX memory_runs_chat ON memory_runs (chat_key, created_at);
