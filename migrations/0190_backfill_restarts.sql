-- Restart of a failed OneBot backfill (README "OneBot backfill"): the record keeps its cursor
-- and counts and runs again. `restarts` counts the restarts; `restart_pages` is `pages` at the
-- last restart, so the page bound (backfill.maxPages) counts the pages since it, not in total.
ALTER TABLE backfill_progress ADD COLUMN restarts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE backfill_progress ADD COLUMN restart_pages INTEGER NOT NULL DEFAULT 0;
