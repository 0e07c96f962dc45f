-- Identity tables (docs/identity.md#people-and-accounts): scope-resolution data, not memory. People declared in config
-- (identity.people) are not stored here; config is their source of truth. Timestamps are ms.

-- People created by an admin's /identity link or implied by a platform union id.
CREATE TABLE persons (
  person_id    TEXT PRIMARY KEY,
  display_name TEXT,
  origin       TEXT NOT NULL CHECK (origin IN ('admin', 'union')),
  created_at   INTEGER NOT NULL
);

-- Which person an account belongs to. person_id refers to a config person or a persons row;
-- NULL means an admin detached the account (it stands alone and is never linked automatically).
CREATE TABLE person_accounts (
  account_key TEXT PRIMARY KEY,
  person_id   TEXT,
  source      TEXT NOT NULL CHECK (source IN ('admin', 'union')),
  -- channel:union:<union_openid> when the platform gave one.
  union_key   TEXT,
  linked_by   TEXT,
  linked_at   INTEGER NOT NULL,
  CHECK (person_id IS NOT NULL OR source = 'admin')
);
CREATE INDEX person_accounts_person ON person_accounts (person_id);
CREATE INDEX person_accounts_union ON person_accounts (union_key) WHERE union_key IS NOT NULL;

-- Where an account was seen (ParticipantObservation): written from every inbound message
-- through the chat object's outbox, upserted so that a retried flush changes nothing.
CREATE TABLE account_observations (
  account_key  TEXT NOT NULL,
  chat_key     TEXT NOT NULL,
  user_id      TEXT NOT NULL,
  union_key    TEXT,
  display_name TEXT,
  role         TEXT,
  first_seen   INTEGER NOT NULL,
  last_seen    INTEGER NOT NULL,
  PRIMARY KEY (account_key, chat_key)
);
CREATE INDEX account_observations_union ON account_observations (union_key) WHERE union_key IS NOT NULL;
CREATE INDEX account_observations_chat ON account_observations (chat_key, last_seen);
