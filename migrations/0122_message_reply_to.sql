-- The message a logged message quotes (its platform message id), so reply links can be read
-- from the log: the daily summary ranks most-replied-to messages with them. NULL when the
-- message is no reply or was logged before this column.
ALTER TABLE messages ADD COLUMN reply_to TEXT;
