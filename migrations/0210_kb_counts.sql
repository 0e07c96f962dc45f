-- Kept sizes of knowledge collections (docs/storage.md#kb_counts).
--
-- Every knowledge search asks how many passages its collections hold, and their characters
-- when there are few (the pipeline reads a small set whole and searches a large one in two
-- stages). Counting that from nodes visits every passage row of the collection, the
-- costliest statement of a search at 10,000 passages. kb_counts keeps, per collection scope,
-- node type and collection column, how many active rows there are and the characters of
-- their raw text; triggers on nodes keep it inside the writing statement (import, re-import,
-- document and collection deletes, status or scope changes), so it cannot drift from the rows.
-- A row whose collection column is NULL counts under ''.

CREATE TABLE kb_counts (
  scope_id   TEXT NOT NULL,
  node_type  TEXT NOT NULL,
  collection TEXT NOT NULL,
  nodes      INTEGER NOT NULL,
  chars      INTEGER NOT NULL,
  PRIMARY KEY (scope_id, node_type, collection)
) WITHOUT ROWID;

INSERT INTO kb_counts (scope_id, node_type, collection, nodes, chars)
  SELECT scope_id, node_type, coalesce(collection, ''), count(*), coalesce(sum(length(raw_text)), 0)
  FROM nodes WHERE scope_type = 'collection' AND status = 'active'
  GROUP BY scope_id, node_type, coalesce(collection, '');

CREATE TRIGGER kb_counts_ai AFTER INSERT ON nodes
  WHEN new.scope_type = 'collection' AND new.status = 'active' BEGIN
  INSERT INTO kb_counts (scope_id, node_type, collection, nodes, chars)
    VALUES (new.scope_id, new.node_type, coalesce(new.collection, ''), 1, length(new.raw_text))
    ON CONFLICT (scope_id, node_type, collection) DO UPDATE SET nodes = nodes + 1, chars = chars + excluded.chars;
END;

CREATE TRIGGER kb_counts_ad AFTER DELETE ON nodes
  WHEN old.scope_type = 'collection' AND old.status = 'active' BEGIN
  UPDATE kb_counts SET nodes = nodes - 1, chars = chars - length(old.raw_text)
    WHERE scope_id = old.scope_id AND node_type = old.node_type AND collection = coalesce(old.collection, '');
  DELETE FROM kb_counts
    WHERE scope_id = old.scope_id AND node_type = old.node_type AND collection = coalesce(old.collection, '')
      AND nodes <= 0;
END;

CREATE TRIGGER kb_counts_au AFTER UPDATE OF scope_type, scope_id, node_type, collection, status, raw_text ON nodes
  WHEN (old.scope_type = 'collection' AND old.status = 'active')
    OR (new.scope_type = 'collection' AND new.status = 'active') BEGIN
  UPDATE kb_counts SET nodes = nodes - 1, chars = chars - length(old.raw_text)
    WHERE old.scope_type = 'collection' AND old.status = 'active'
      AND scope_id = old.scope_id AND node_type = old.node_type AND collection = coalesce(old.collection, '');
  DELETE FROM kb_counts
    WHERE old.scope_type = 'collection' AND old.status = 'active'
      AND scope_id = old.scope_id AND node_type = old.node_type AND collection = coalesce(old.collection, '')
      AND nodes <= 0;
  INSERT INTO kb_counts (scope_id, node_type, collection, nodes, chars)
    SELECT new.scope_id, new.node_type, coalesce(new.collection, ''), 1, length(new.raw_text)
    WHERE new.scope_type = 'collection' AND new.status = 'active'
    ON CONFLICT (scope_id, node_type, collection) DO UPDATE SET nodes = nodes + 1, chars = chars + excluded.chars;
END;
