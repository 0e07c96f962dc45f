-- A privacy request marks its speaker's messages of the ten minutes on either side
-- (docs/sessions.md#marked-messages): people ask ahead as often as after — "跟你们说个事，别外传啊",
-- then "我下个月离职" — and a request may carry words of its own ("这事别外传啊，老板还不知道")
-- while it is about the message before. `private_marked` 3 is a request with what it is about,
-- 2 a bare request; both mark the window (600,000 ms, PRIVACY_MARK_WINDOW_MS), whichever message
-- reaches the log first. 1 marks nothing more, so a mark never spreads from message to message.
-- The bot's replies near a request are marked alike (0470 did so for bare requests only).
DROP TRIGGER messages_privacy_marker_ai;
CREATE TRIGGER messages_privacy_marker_ai AFTER INSERT ON messages
WHEN new.private_marked IN (2, 3) AND new.direction = 'in' AND coalesce(new.account_key, new.user_id) IS NOT NULL BEGIN
  UPDATE messages SET private_marked = 1
  WHERE chat_key = new.chat_key AND direction = 'in' AND private_marked = 0 AND seq <> new.seq
    AND ts >= new.ts - 600000 AND ts <= new.ts + 600000
    AND coalesce(account_key, user_id) = coalesce(new.account_key, new.user_id);
END;

DROP TRIGGER messages_privacy_marked_later_ai;
CREATE TRIGGER messages_privacy_marked_later_ai AFTER INSERT ON messages
WHEN new.private_marked = 0 AND new.direction = 'in' AND coalesce(new.account_key, new.user_id) IS NOT NULL BEGIN
  UPDATE messages SET private_marked = 1
  WHERE seq = new.seq AND EXISTS (
    SELECT 1 FROM messages k
    WHERE k.chat_key = new.chat_key AND k.private_marked IN (2, 3) AND k.direction = 'in' AND k.seq <> new.seq
      AND k.ts >= new.ts - 600000 AND k.ts <= new.ts + 600000
      AND coalesce(k.account_key, k.user_id) = coalesce(new.account_key, new.user_id));
END;

DROP TRIGGER messages_privacy_marker_replies_ai;
CREATE TRIGGER messages_privacy_marker_replies_ai AFTER INSERT ON messages
WHEN new.private_marked IN (2, 3) AND new.direction = 'in' BEGIN
  UPDATE messages SET private_marked = 1
  WHERE chat_key = new.chat_key AND direction = 'out' AND private_marked = 0
    AND ts >= new.ts - 600000 AND ts <= new.ts + 600000;
END;

DROP TRIGGER messages_reply_near_marker_ai;
CREATE TRIGGER messages_reply_near_marker_ai AFTER INSERT ON messages
WHEN new.direction = 'out' AND new.private_marked = 0 BEGIN
  UPDATE messages SET private_marked = 1
  WHERE seq = new.seq AND EXISTS (
    SELECT 1 FROM messages k
    WHERE k.chat_key = new.chat_key AND k.private_marked IN (2, 3) AND k.direction = 'in'
      AND k.ts >= new.ts - 600000 AND k.ts <= new.ts + 600000);
END;

-- Messages already logged in the ten minutes after a bare request of their speaker are marked now,
-- as the trigger would have. Requests with words of their own were logged as 1 before, among the
-- messages they marked, so only bare requests (2) can be told apart here. The scan starts from
-- them, and they are few.
UPDATE messages SET private_marked = 1
WHERE private_marked = 0 AND direction = 'in' AND seq IN (
  SELECT m.seq FROM messages k JOIN messages m
    ON m.chat_key = k.chat_key AND m.direction = 'in' AND m.private_marked = 0
   AND m.ts > k.ts AND m.ts <= k.ts + 600000
   AND coalesce(m.account_key, m.user_id) = coalesce(k.account_key, k.user_id)
  WHERE k.private_marked = 2 AND k.direction = 'in');
