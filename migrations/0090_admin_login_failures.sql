-- Failed dashboard logins per client address, in fixed windows: the login refuses a client
-- with too many recent failures before it compares the token. In D1 rather than a rate-limit
-- binding because those counters are per location and permissive, and a guesser can spread
-- over locations; failed logins are rare, so the writes cost nothing.
CREATE TABLE admin_login_failures (
  client TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  failures INTEGER NOT NULL
);
