-- privacy.doNotRecord (docs/settings.md#privacy-leaving-a-person-out): a listed account's messages and sightings are
-- never written. The chat object leaves them out where it writes; these triggers hold the same
-- rule for every writer of D1 (a flush of rows queued before the account was listed, the
-- backfill, anything later), reading the stored settings layer, so the list binds from the
-- moment it is saved. RAISE(IGNORE) drops the row without failing the rest of the batch; the
-- FTS triggers never see it. An account listed only in AKASHA_CONFIG is left out by the code.
CREATE TRIGGER messages_do_not_record BEFORE INSERT ON messages
WHEN new.account_key IS NOT NULL AND EXISTS (
  SELECT 1 FROM settings s, json_each(CASE WHEN json_valid(s.value) THEN s.value ELSE '{}' END, '$.privacy.doNotRecord') j
  WHERE s.key = 'config' AND j.value = new.account_key)
BEGIN
  SELECT RAISE(IGNORE);
END;

CREATE TRIGGER account_observations_do_not_record BEFORE INSERT ON account_observations
WHEN EXISTS (
  SELECT 1 FROM settings s, json_each(CASE WHEN json_valid(s.value) THEN s.value ELSE '{}' END, '$.privacy.doNotRecord') j
  WHERE s.key = 'config' AND j.value = new.account_key)
BEGIN
  SELECT RAISE(IGNORE);
END;

-- Forgetting a left-out account deletes its messages from every chat's log: found by account.
CREATE INDEX messages_account ON messages (account_key) WHERE account_key IS NOT NULL;
