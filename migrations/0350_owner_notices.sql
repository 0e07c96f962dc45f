-- Notices to the owner (docs/decisions/0280-notices-to-the-owner.md, docs/storage.md#owner_notices).
--
-- One row per notice: a spend cap reached, a backfill that failed, model errors that repeat.
-- An occurrence of the same kind and subject while the notice is open (not acknowledged) counts
-- on the same row, so a repeating error is one notice whose count grows. `text` is built from
-- facts only (counts, chat keys, days, error classes), never from anything a person said.
-- A model-errors row waits with raised_at NULL until enough errors fall in one window.
-- notified_at: the message to the owner was handed over (set before the send: at most once).

CREATE TABLE owner_notices (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  kind            TEXT NOT NULL,
  subject         TEXT NOT NULL,
  text            TEXT NOT NULL,
  first_seen      INTEGER NOT NULL,
  last_seen       INTEGER NOT NULL,
  count           INTEGER NOT NULL,
  window_start    INTEGER NOT NULL,
  raised_at       INTEGER,
  notified_at     INTEGER,
  acknowledged_at INTEGER,
  acknowledged_by TEXT
);

-- One open notice per kind and subject.
CREATE UNIQUE INDEX owner_notices_open ON owner_notices (kind, subject) WHERE acknowledged_at IS NULL;
-- The dashboard's list and the delivery's wait: open notices by when they were raised.
CREATE INDEX owner_notices_raised ON owner_notices (raised_at) WHERE acknowledged_at IS NULL;
