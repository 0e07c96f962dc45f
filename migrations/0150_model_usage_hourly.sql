-- Per-hour token counters of model_usage, per chat and over all chats ('*'), so that the
-- spend-cap check before a model call reads at most 25 rows per key (one local day in any
-- zone with a whole-hour offset) instead of the day's usage rows. The trigger keeps them in
-- step with model_usage: a flush retried with the same dedupe_key inserts nothing, so it adds
-- nothing here either.
CREATE TABLE model_usage_hourly (
  -- The chat key, '' for usage without a chat, '*' for the total of every chat.
  chat_key TEXT    NOT NULL,
  -- at / 3600000: the UTC hour the call was recorded in.
  hour     INTEGER NOT NULL,
  calls    INTEGER NOT NULL,
  -- prompt_tokens + completion_tokens; unreported counts as 0.
  tokens   INTEGER NOT NULL,
  PRIMARY KEY (chat_key, hour)
) WITHOUT ROWID;

CREATE TRIGGER model_usage_hourly_ai AFTER INSERT ON model_usage BEGIN
  INSERT INTO model_usage_hourly (chat_key, hour, calls, tokens)
    VALUES (coalesce(new.chat_key, ''), new.at / 3600000, 1,
            coalesce(new.prompt_tokens, 0) + coalesce(new.completion_tokens, 0))
    ON CONFLICT (chat_key, hour) DO UPDATE SET calls = calls + 1, tokens = tokens + excluded.tokens;
  INSERT INTO model_usage_hourly (chat_key, hour, calls, tokens)
    VALUES ('*', new.at / 3600000, 1, coalesce(new.prompt_tokens, 0) + coalesce(new.completion_tokens, 0))
    ON CONFLICT (chat_key, hour) DO UPDATE SET calls = calls + 1, tokens = tokens + excluded.tokens;
END;

INSERT INTO model_usage_hourly (chat_key, hour, calls, tokens)
  SELECT coalesce(chat_key, ''), at / 3600000, count(*),
         sum(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0))
  FROM model_usage GROUP BY coalesce(chat_key, ''), at / 3600000;
INSERT INTO model_usage_hourly (chat_key, hour, calls, tokens)
  SELECT '*', at / 3600000, count(*), sum(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0))
  FROM model_usage GROUP BY at / 3600000;
