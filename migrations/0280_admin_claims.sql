-- One-time codes that make the first admin of a deployment (docs/identity.md#the-first-admin).
--
-- `npm run akasha -- admins claim` issues a code while no admin is declared; the owner sends
-- `/claim <code>` to the bot in a private chat. The code is a credential: only its SHA-256
-- digest is kept here. A code is pending until it is used, revoked (a newer code was issued,
-- or it was said in a group) or past expires_at.

CREATE TABLE admin_claims (
  digest     TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER,
  used_by    TEXT,
  revoked_at INTEGER
) WITHOUT ROWID;
