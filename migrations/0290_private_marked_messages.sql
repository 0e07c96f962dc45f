-- Messages whose speaker asked for privacy stay in their chat (docs/invariants.md#one-read-gate,
-- docs/sessions.md): `private_marked` is set by the writer from the speaker's own words
-- (src/domain/history/privacy-mark.ts, the privacy-request recogniser): 0 = nothing asked,
-- 1 = marked (the message asks, or a later bare request of its speaker points back at it),
-- 2 = a bare request ("这个别外传") — marked itself, and it marks its speaker's messages of the
-- ten minutes before it. Every reader of another chat's log reads `private_marked = 0` only
-- (src/adapters/d1/d1-message-gate.ts); the chat's own turns read everything.
--
-- Rows logged before this migration stay 0: the recogniser runs in the Worker, not in SQL, and
-- no job re-scans the old log (docs/sessions.md says so). OneBot history backfilled from now on
-- is written by the same writer, so it is marked.
ALTER TABLE messages ADD COLUMN private_marked INTEGER NOT NULL DEFAULT 0;

-- A bare request marks its speaker's preceding messages of the same chat within ten minutes
-- (600,000 ms, PRIVACY_MARK_WINDOW_MS): the window the dreaming path's next-message markers
-- assume ("我下个月离职" then "别说出去哈"). Triggers, so that every writer — the chat object's
-- flush, OneBot backfill — marks alike, whichever of the two messages reaches D1 first.
CREATE TRIGGER messages_privacy_marker_ai AFTER INSERT ON messages
WHEN new.private_marked = 2 AND new.direction = 'in' AND coalesce(new.account_key, new.user_id) IS NOT NULL BEGIN
  UPDATE messages SET private_marked = 1
  WHERE chat_key = new.chat_key AND direction = 'in' AND private_marked = 0 AND seq <> new.seq
    AND ts >= new.ts - 600000 AND ts <= new.ts
    AND coalesce(account_key, user_id) = coalesce(new.account_key, new.user_id);
END;

-- A message written after the bare request that points back at it (backfill pages newest first).
CREATE TRIGGER messages_privacy_marked_later_ai AFTER INSERT ON messages
WHEN new.private_marked = 0 AND new.direction = 'in' AND coalesce(new.account_key, new.user_id) IS NOT NULL BEGIN
  UPDATE messages SET private_marked = 1
  WHERE seq = new.seq AND EXISTS (
    SELECT 1 FROM messages k
    WHERE k.chat_key = new.chat_key AND k.private_marked = 2 AND k.direction = 'in' AND k.seq <> new.seq
      AND k.ts >= new.ts AND k.ts <= new.ts + 600000
      AND coalesce(k.account_key, k.user_id) = coalesce(new.account_key, new.user_id));
END;

-- A turn window never carries a marked neighbour's words: a sibling chat's search matches the
-- window of an unmarked message, so the window must not hold what the marked one said. The
-- marked message's own window still holds its own words (only its chat reads it).
DROP VIEW message_window_text;
CREATE VIEW message_window_text AS
SELECT m.seq AS seq, trim(
  coalesce((SELECT CASE WHEN p.private_marked = 0 THEN substr(p.tokens, 1, 1200) ELSE '' END FROM messages p
            WHERE p.chat_key = m.chat_key AND p.recalled = 0 AND p.ts >= m.ts - 1800000
              AND (p.ts < m.ts OR (p.ts = m.ts AND p.seq < m.seq))
            ORDER BY p.ts DESC, p.seq DESC LIMIT 1), '')
  || ' ' || m.tokens || ' ' ||
  coalesce((SELECT CASE WHEN n.private_marked = 0 THEN substr(n.tokens, 1, 1200) ELSE '' END FROM messages n
            WHERE n.chat_key = m.chat_key AND n.recalled = 0 AND n.ts <= m.ts + 1800000
              AND (n.ts > m.ts OR (n.ts = m.ts AND n.seq > m.seq))
            ORDER BY n.ts, n.seq LIMIT 1), '')) AS tokens
FROM messages m WHERE m.recalled = 0;

-- A message marked after it was logged (by its speaker's next message): its neighbours' windows
-- are rebuilt without its words.
CREATE TRIGGER message_windows_marked AFTER UPDATE OF private_marked ON messages
WHEN new.private_marked <> 0 AND old.private_marked = 0 AND new.recalled = 0 BEGIN
  DELETE FROM message_windows WHERE seq IN (
    SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
    UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq);
  INSERT INTO message_windows (seq, tokens)
  SELECT seq, tokens FROM message_window_text WHERE seq IN (
    SELECT prev_seq FROM message_neighbours WHERE centre = new.seq
    UNION ALL SELECT next_seq FROM message_neighbours WHERE centre = new.seq);
END;
