-- Decay and reinforcement (docs/memory.md#decay-and-reinforcement, decision 0420): a memory item's
-- ranking weight halves with the age of its last reinforcement, per kind. An item is reinforced
-- when a turn's answer was given with it in the context the model received, or when it is said
-- again; `reinforced_by` is the cause of the last one (a turn's event, a restatement), so a
-- retried turn does not count twice. `keep_forever` = 1: no decay and no expiry, set by an admin.
-- A task expires when its due time (`due_at`) passed, when it is marked done, or when its
-- lifetime ran out: status `archived` with `expired_at`, audited, never deleted. All times are
-- UTC epoch milliseconds.
ALTER TABLE nodes ADD COLUMN reinforced_at INTEGER;
ALTER TABLE nodes ADD COLUMN reinforce_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE nodes ADD COLUMN reinforced_by TEXT;
ALTER TABLE nodes ADD COLUMN keep_forever INTEGER NOT NULL DEFAULT 0;
ALTER TABLE nodes ADD COLUMN due_at INTEGER;
ALTER TABLE nodes ADD COLUMN expired_at INTEGER;

-- The expiry sweep reads only active tasks.
CREATE INDEX nodes_active_tasks ON nodes (kind, status) WHERE node_type = 'memory' AND kind = 'task' AND status = 'active';
