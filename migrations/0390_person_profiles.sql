-- Person profiles (docs/memory.md#person-profiles): one short text per person and audience, built
-- from the person's own memory items that the audience may read. A profile is served only
-- while it was built from the current items: every write to a person's or account's memory
-- items — from any writer, the code or an owner's migration — bumps that scope's version here,
-- and a profile whose stored version is not the current sum of its scopes' versions is never
-- read (it is rebuilt). So an item made private, moved or forgotten leaves the public profile
-- at the next read, by construction.
CREATE TABLE memory_scope_versions (
  scope    TEXT PRIMARY KEY,
  version  INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE person_profiles (
  -- The sorted '|'-joined scope keys the profile is built from, e.g. 'account:qq:user:U1|person:alice'.
  subject     TEXT NOT NULL,
  audience    TEXT NOT NULL CHECK (audience IN ('public', 'own')),
  version     INTEGER NOT NULL,
  text        TEXT NOT NULL,
  items       INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (subject, audience)
) WITHOUT ROWID;

CREATE TRIGGER nodes_profile_version_ai AFTER INSERT ON nodes
WHEN new.node_type = 'memory' AND new.scope_type IN ('person', 'account')
BEGIN
  INSERT INTO memory_scope_versions (scope, version) VALUES (new.scope_type || ':' || new.scope_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER nodes_profile_version_au AFTER UPDATE ON nodes
WHEN (old.node_type = 'memory' AND old.scope_type IN ('person', 'account'))
  OR (new.node_type = 'memory' AND new.scope_type IN ('person', 'account'))
BEGIN
  INSERT INTO memory_scope_versions (scope, version)
    SELECT old.scope_type || ':' || old.scope_id, 1
    WHERE old.node_type = 'memory' AND old.scope_type IN ('person', 'account')
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
  INSERT INTO memory_scope_versions (scope, version)
    SELECT new.scope_type || ':' || new.scope_id, 1
    WHERE new.node_type = 'memory' AND new.scope_type IN ('person', 'account')
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER nodes_profile_version_ad AFTER DELETE ON nodes
WHEN old.node_type = 'memory' AND old.scope_type IN ('person', 'account')
BEGIN
  INSERT INTO memory_scope_versions (scope, version) VALUES (old.scope_type || ':' || old.scope_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
