-- Knowledge rows written before migration 0220 have no wide-character count (NULL: the search
-- falls back to the character bound). The cron fills them in bounded steps
-- (src/adapters/d1/d1-wide-chars-backfill.ts); this partial index holds exactly the rows still
-- to count, so each step reads only those and, once none is left, a step reads nothing.
-- A knowledge row whose raw_text changes without its count (the 0220 trigger sets it NULL)
-- re-enters it and is counted again by the next run.
CREATE INDEX nodes_wide_chars_missing ON nodes (seq) WHERE wide_chars IS NULL AND scope_type = 'collection';
