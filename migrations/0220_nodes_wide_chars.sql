-- How many characters of a node's raw text the token estimate counts as a token each
-- (src/domain/text/token-estimate.ts, wideChars): CJK ideographs, kana, Hangul.
--
-- Parent expansion asks the search for the texts of the hits' families, and sends a family's
-- text only when it could fit the merge budget. From characters alone that bound is a quarter
-- token per character, four times too loose for Chinese: a section of 800–3,200 CJK
-- characters, too long to merge at 800 tokens, was sent whole with every search. With the
-- wide count the statement bounds the estimate from below, `wide + (length − wide) / 4`, and
-- leaves out what cannot fit.
--
-- Written by the knowledge import (d1-node-writes.ts). NULL counts as 0 wide characters, the
-- character bound of before, so rows written earlier or by other writers stay correct; a
-- change of raw_text that does not write the count sets it back to NULL, so a stale count can
-- never hold back a family that fits.
ALTER TABLE nodes ADD COLUMN wide_chars INTEGER;

CREATE TRIGGER nodes_wide_chars_stale AFTER UPDATE OF raw_text ON nodes
  WHEN new.raw_text IS NOT old.raw_text AND new.wide_chars IS old.wide_chars AND new.wide_chars IS NOT NULL BEGIN
  UPDATE nodes SET wide_chars = NULL WHERE seq = new.seq;
END;
