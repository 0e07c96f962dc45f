-- Daily summaries (docs/memory.md#daily-summaries): one record per (chat, local day) the cron
-- looked at. The summary text itself is a `nodes` row (node_type and kind 'summary', chat
-- scope); this record makes the sweep idempotent and resumable, and keeps skipped days
-- (unfollowed, too few messages) from being looked at again.
CREATE TABLE summary_days (
  chat_key   TEXT NOT NULL,
  -- YYYY-MM-DD in summaries.timeZone
  day        TEXT NOT NULL,
  status     TEXT NOT NULL CHECK (status IN ('written', 'skipped')),
  node_id    TEXT,
  method     TEXT CHECK (method IS NULL OR method IN ('model', 'extractive')),
  reason     TEXT,
  messages   INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (chat_key, day)
);
CREATE INDEX summary_days_day ON summary_days (day);
