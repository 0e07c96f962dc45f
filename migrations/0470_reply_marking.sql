-- A bot reply near a bare privacy request of its chat is marked (docs/sessions.md#marked-messages):
-- the reply to "我下个月去做手术" may echo it before its speaker's next message ("这个别说出去哈")
-- marks it, and the reply's own turn held nothing marked yet. Ten minutes on either side
-- (600,000 ms, PRIVACY_MARK_WINDOW_MS), whichever of the two reaches the log first. Replies to
-- others in that window are marked too: a marked reply is only kept from other chats.
CREATE TRIGGER messages_privacy_marker_replies_ai AFTER INSERT ON messages
WHEN new.private_marked = 2 AND new.direction = 'in' BEGIN
  UPDATE messages SET private_marked = 1
  WHERE chat_key = new.chat_key AND direction = 'out' AND private_marked = 0
    AND ts >= new.ts - 600000 AND ts <= new.ts + 600000;
END;

CREATE TRIGGER messages_reply_near_marker_ai AFTER INSERT ON messages
WHEN new.direction = 'out' AND new.private_marked = 0 BEGIN
  UPDATE messages SET private_marked = 1
  WHERE seq = new.seq AND EXISTS (
    SELECT 1 FROM messages k
    WHERE k.chat_key = new.chat_key AND k.private_marked = 2 AND k.direction = 'in'
      AND k.ts >= new.ts - 600000 AND k.ts <= new.ts + 600000);
END;
