-- A person profile leaves storage with the items it was built from
-- (docs/decisions/1010-a-profile-leaves-with-its-items.md). Migration 0390 made a profile built from
-- older items unreadable, but kept its row: an item forgotten, moved, made private or erased for a
-- credential stayed written in the profile until the person's next turn rebuilt it. Now every bump
-- of a scope's version deletes the profiles built over that scope (their subject is the sorted
-- '|'-joined scope keys), and the store saves a profile only at the current version, so a build
-- that raced a write leaves no row either. A profile is a cache of its items: the next turn that
-- reads one builds it again.
CREATE TRIGGER memory_scope_versions_ai AFTER INSERT ON memory_scope_versions BEGIN
  DELETE FROM person_profiles WHERE instr('|' || subject || '|', '|' || new.scope || '|') > 0;
END;
CREATE TRIGGER memory_scope_versions_au AFTER UPDATE ON memory_scope_versions BEGIN
  DELETE FROM person_profiles WHERE instr('|' || subject || '|', '|' || new.scope || '|') > 0;
END;
-- The rows kept before this step that were built from older items: never read again, only kept.
DELETE FROM person_profiles WHERE version != (
  SELECT COALESCE(SUM(v.version), 0) FROM memory_scope_versions v
  WHERE instr('|' || person_profiles.subject || '|', '|' || v.scope || '|') > 0
);
