-- Knowledge-base collections (docs/retrieval.md#import-and-chunking) and the bookkeeping of the embeddings cache
-- (docs/retrieval.md#embeddings). Documents, sections and passages are rows of `nodes` (0002) with
-- scope_type 'collection' and scope_id = the collection name.

CREATE TABLE kb_collections (
  name          TEXT PRIMARY KEY,
  title         TEXT,
  description   TEXT,
  -- Hard cap of a passage in characters, and the overlap carried between split passages.
  chunk_size    INTEGER NOT NULL DEFAULT 800 CHECK (chunk_size BETWEEN 50 AND 8000),
  chunk_overlap INTEGER NOT NULL DEFAULT 80 CHECK (chunk_overlap >= 0),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);

-- A document is found by its collection and source (file name) on re-import.
CREATE INDEX nodes_source ON nodes (scope_type, scope_id, source_id, node_type);

-- Which nodes an external vector index (Vectorize) holds, per embedding model
-- (`model_id@model_version`). Lets `embeddings rebuild` upsert only what is missing, and a
-- deletion remove vectors by id even after the node row is gone (a sweep retries failures).
-- The brute-force index reads `embeddings` through `nodes` and needs no rows here.
CREATE TABLE vector_sync (
  model_key    TEXT NOT NULL,
  node_id      TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  synced_at    INTEGER NOT NULL,
  PRIMARY KEY (model_key, node_id)
);
