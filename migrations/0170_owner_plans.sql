-- Owner data-migration plans made from the dashboard (scope-migration, sensitivity-backfill):
-- the plan JSON with every row's before-state, which is what a rollback restores from, and
-- the record of its apply and rollback. The CLI keeps its plans in files instead.
CREATE TABLE owner_plans (
  plan_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  plan TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX owner_plans_created ON owner_plans (created_at);
