-- Who wrote a person profile's text (docs/memory.md#person-profiles): `extract` — the items' own
-- words, built on a turn's read; `model` — the chat model's rewrite of that text, from the same
-- audience's items, saved only while the version it was asked at is still current; `kept` — the
-- model's answer was refused (empty, too long, a credential), so the extractive text stays and
-- is not offered again at this version. A newer write to the items rebuilds it as `extract`.
ALTER TABLE person_profiles ADD COLUMN written_by TEXT NOT NULL DEFAULT 'extract'
  CHECK (written_by IN ('extract', 'model', 'kept'));
