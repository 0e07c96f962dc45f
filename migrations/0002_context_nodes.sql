-- The context store (docs/retrieval.md#context-store): one node table for memory, knowledge and summaries, its
-- edges, its CJK full-text index, the dreaming audit and the embeddings cache.

CREATE TABLE nodes (
  seq                INTEGER PRIMARY KEY AUTOINCREMENT,
  node_id            TEXT NOT NULL UNIQUE,
  parent_id          TEXT,
  root_id            TEXT,
  -- JSON array of headings from the document root to this node, e.g. ["阿贝多","角色故事"].
  path               TEXT NOT NULL DEFAULT '[]',
  -- Order among siblings (documents, sections, passages).
  position           INTEGER NOT NULL DEFAULT 0,
  node_type          TEXT NOT NULL
    CHECK (node_type IN ('source', 'document', 'section', 'passage', 'episode', 'memory', 'summary')),
  source_type        TEXT NOT NULL CHECK (source_type IN ('document', 'conversation', 'human', 'tool')),
  source_id          TEXT,
  scope_type         TEXT NOT NULL
    CHECK (scope_type IN ('global', 'chat', 'person', 'account', 'collection', 'workspace')),
  scope_id           TEXT NOT NULL,
  collection         TEXT,
  -- Memory kind: preference, fact, task, decision, procedure, warning, summary, …
  kind               TEXT,
  title              TEXT,
  raw_text           TEXT NOT NULL,
  retrieval_text     TEXT NOT NULL,
  -- Space-joined tokens of retrieval_text; the FTS index reads these.
  retrieval_tokens   TEXT NOT NULL,
  summary            TEXT,
  metadata           TEXT NOT NULL DEFAULT '{}',
  provenance         TEXT NOT NULL DEFAULT '{}',
  importance         REAL NOT NULL DEFAULT 0.5,
  confidence         REAL NOT NULL DEFAULT 1.0,
  sensitivity        TEXT NOT NULL DEFAULT 'public' CHECK (sensitivity IN ('public', 'private', 'secret_like')),
  sensitivity_source TEXT NOT NULL DEFAULT 'default' CHECK (sensitivity_source IN ('default', 'dream', 'explicit')),
  -- metadata.portable mirrored as a column so that soft-scope filtering happens in SQL before LIMIT.
  portable           INTEGER NOT NULL DEFAULT 1,
  status             TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived', 'superseded')),
  content_hash       TEXT NOT NULL,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL,
  -- The scope as one FTS token: searches match `scope_token : "<hex>"` per readable scope.
  scope_token        TEXT GENERATED ALWAYS AS (hex(scope_type || ':' || scope_id)) VIRTUAL
);
CREATE INDEX nodes_scope ON nodes (scope_type, scope_id, status, node_type);
CREATE INDEX nodes_collection ON nodes (collection, node_type, status);
CREATE INDEX nodes_parent ON nodes (parent_id, position);
CREATE INDEX nodes_root ON nodes (root_id);
CREATE INDEX nodes_hash ON nodes (content_hash);

CREATE VIRTUAL TABLE nodes_fts USING fts5(
  retrieval_tokens, scope_token, content = 'nodes', content_rowid = 'seq', tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('automerge', 2);
INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('crisismerge', 4);
CREATE TRIGGER nodes_fts_ai AFTER INSERT ON nodes BEGIN
  INSERT INTO nodes_fts (rowid, retrieval_tokens, scope_token) VALUES (new.seq, new.retrieval_tokens, new.scope_token);
END;
CREATE TRIGGER nodes_fts_ad AFTER DELETE ON nodes BEGIN
  INSERT INTO nodes_fts (nodes_fts, rowid, retrieval_tokens, scope_token) VALUES ('delete', old.seq, old.retrieval_tokens, old.scope_token);
END;
CREATE TRIGGER nodes_fts_au AFTER UPDATE OF retrieval_tokens, scope_type, scope_id ON nodes BEGIN
  INSERT INTO nodes_fts (nodes_fts, rowid, retrieval_tokens, scope_token) VALUES ('delete', old.seq, old.retrieval_tokens, old.scope_token);
  INSERT INTO nodes_fts (rowid, retrieval_tokens, scope_token) VALUES (new.seq, new.retrieval_tokens, new.scope_token);
END;

CREATE TABLE edges (
  src_id     TEXT NOT NULL REFERENCES nodes (node_id) ON DELETE CASCADE,
  dst_id     TEXT NOT NULL REFERENCES nodes (node_id) ON DELETE CASCADE,
  edge_type  TEXT NOT NULL
    CHECK (edge_type IN ('parent_of', 'derived_from', 'mentions', 'alias_of', 'supersedes', 'adjacent_to')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (src_id, edge_type, dst_id)
);
CREATE INDEX edges_dst ON edges (dst_id, edge_type);

-- Every candidate dreaming or an explicit request produced, with its decision (audit).
CREATE TABLE memory_candidates (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id             TEXT NOT NULL,
  chat_key           TEXT NOT NULL,
  origin             TEXT NOT NULL CHECK (origin IN ('dream', 'explicit', 'tool')),
  kind               TEXT NOT NULL,
  text               TEXT NOT NULL,
  scope_type         TEXT NOT NULL,
  scope_id           TEXT NOT NULL,
  sensitivity        TEXT NOT NULL,
  sensitivity_source TEXT NOT NULL,
  importance         REAL,
  decision           TEXT NOT NULL
    CHECK (decision IN ('insert', 'supersede', 'archive', 'duplicate', 'rejected')),
  reason             TEXT,
  node_id            TEXT,
  target_node_id     TEXT,
  evidence           TEXT NOT NULL DEFAULT '{}',
  created_at         INTEGER NOT NULL
);
CREATE INDEX memory_candidates_chat ON memory_candidates (chat_key, created_at);

-- Embeddings are a derived cache keyed by content hash per model version (docs/retrieval.md#embeddings).
CREATE TABLE embeddings (
  model_id      TEXT NOT NULL,
  model_version TEXT NOT NULL,
  content_hash  TEXT NOT NULL,
  dims          INTEGER NOT NULL,
  -- float32 little-endian
  vector        BLOB NOT NULL,
  created_at    INTEGER NOT NULL,
  PRIMARY KEY (model_id, model_version, content_hash)
);
