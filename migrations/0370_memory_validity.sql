-- Validity in time (docs/memory.md#validity-in-time): a memory item says when what it states
-- became true (`valid_from`) and, once a newer statement of the same subject in the same scope
-- closed it, when it stopped (`valid_to`) and which item closed it (`closed_by`). Event time, kept
-- apart from record time (`created_at`, `updated_at`); all are UTC epoch milliseconds. A closed
-- item is `superseded`, never deleted, and keeps its sensitivity.
ALTER TABLE nodes ADD COLUMN valid_from INTEGER;
ALTER TABLE nodes ADD COLUMN valid_to INTEGER;
ALTER TABLE nodes ADD COLUMN closed_by TEXT;

-- Existing items became true when they were recorded, and are open.
UPDATE nodes SET valid_from = created_at WHERE node_type = 'memory' AND valid_from IS NULL;

-- Items superseded before this column existed stopped when they were superseded (their last
-- update), closed by the item their `supersedes` edge names.
UPDATE nodes SET valid_to = updated_at,
  closed_by = (SELECT e.src_id FROM edges e WHERE e.dst_id = nodes.node_id AND e.edge_type = 'supersedes' LIMIT 1)
WHERE node_type = 'memory' AND status = 'superseded' AND valid_to IS NULL;
