-- An embedding leaves storage with the last memory item or summary that held its text
-- (docs/decisions/1040-embeddings-leave-with-their-text.md). An embedding is the vector of a text:
-- a form of its words. Knowledge removals collected theirs at once, but an admin's forget, `/forget`,
-- an erasure for a credential and an edit that changed an item's text left theirs in `embeddings`
-- for good, since nothing collected the embeddings of memory. A knowledge passage is left out:
-- replacing a document deletes its passages and inserts the same texts in one batch, and its
-- removal path collects what no passage holds afterwards.
CREATE TRIGGER nodes_embeddings_ad AFTER DELETE ON nodes
WHEN old.node_type IN ('memory', 'summary')
  AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.content_hash = old.content_hash)
BEGIN
  DELETE FROM embeddings WHERE content_hash = old.content_hash;
END;
CREATE TRIGGER nodes_embeddings_au AFTER UPDATE OF content_hash ON nodes
WHEN old.node_type IN ('memory', 'summary')
  AND new.content_hash != old.content_hash
  AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.content_hash = old.content_hash)
BEGIN
  DELETE FROM embeddings WHERE content_hash = old.content_hash;
END;
-- What was kept before this step: embeddings no node holds the text of any more.
DELETE FROM embeddings
WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.content_hash = embeddings.content_hash);
