-- A small bounded operations log for the overview page: unhandled request errors and each
-- retention run (what it deleted, whether it finished). Writers keep at most a few hundred
-- rows per kind, deleting the oldest, so it never grows with traffic.
CREATE TABLE ops_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  kind TEXT NOT NULL,
  source TEXT NOT NULL,
  message TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX ops_log_kind_at ON ops_log (kind, at);
