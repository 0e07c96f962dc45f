-- OneBot backfill (README "OneBot backfill"): one progress record per followed group whose
-- history the cron fetches with get_group_msg_history, newest page first. `cursor` is the
-- oldest message_seq seen so far (the next page ends before it); a failed page records its
-- error and leaves the cursor and the counts where they were.
CREATE TABLE backfill_progress (
  chat_key      TEXT PRIMARY KEY,
  status        TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  cursor        TEXT,
  pages         INTEGER NOT NULL DEFAULT 0,
  fetched       INTEGER NOT NULL DEFAULT 0,
  stored        INTEGER NOT NULL DEFAULT 0,
  skipped       INTEGER NOT NULL DEFAULT 0,
  errors        INTEGER NOT NULL DEFAULT 0,
  last_error    TEXT,
  -- Why it stopped: reached the beginning, the message or page bound.
  done_reason   TEXT,
  started_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
