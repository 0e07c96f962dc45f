-- A logged message whose words are rewritten afterwards — a value its sender named a secret after
-- it was logged (docs/decisions/0880-a-value-named-after-its-turn.md) — takes along what indexes
-- them: its full-text row, and its own and its neighbours' turn windows, rebuilt from the
-- rewritten tokens as an insert builds them. The old terms leave the indexes' pages at once:
-- FTS5's secure-delete is on for the length of the update (without it a delete writes a tombstone
-- and the term stays until a merge reaches it), and off again after, because it makes every
-- delete dearer — 23 times for the retention's chunked deletes
-- (docs/experiments/0700-fts-secure-delete.md) — while a rewrite touches a few rows. Only that
-- rewrite updates `tokens`.
CREATE TRIGGER messages_retokened_bu BEFORE UPDATE OF tokens ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rank) VALUES ('secure-delete', 1);
  INSERT INTO message_windows_fts (message_windows_fts, rank) VALUES ('secure-delete', 1);
END;
DROP TRIGGER messages_fts_au;
CREATE TRIGGER messages_fts_au AFTER UPDATE OF tokens ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, tokens) VALUES ('delete', old.seq, old.tokens);
  INSERT INTO messages_fts (rowid, tokens) VALUES (new.seq, new.tokens);
  DELETE FROM message_windows WHERE new.recalled = 0 AND seq IN (
    SELECT value FROM (SELECT new.seq AS value UNION ALL SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
                       UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq));
  INSERT INTO message_windows (seq, tokens)
  SELECT seq, tokens FROM message_window_text WHERE new.recalled = 0 AND seq IN (
    SELECT value FROM (SELECT new.seq AS value UNION ALL SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
                       UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq));
  INSERT INTO messages_fts (messages_fts, rank) VALUES ('secure-delete', 0);
  INSERT INTO message_windows_fts (message_windows_fts, rank) VALUES ('secure-delete', 0);
END;
