-- Request rate limits that hold across API instances (src/http/rate-limit.ts, rate-sync.ts;
-- docs/architecture.md, "Decisions": rate limits across instances): one row per credential and one-minute
-- window, to which every instance adds the requests it admitted (every 200 ms, or at once for a
-- credential near its limit) and from which it reads the total of all instances.
--
-- credential is the limiter's identifier ('key:<API key id>' or 'session:<session id>'), never
-- a secret. Rows older than two minutes are deleted by the instances' sync.
--
-- UNLOGGED: the counts live for a minute and are rewritten several times a second; they need no
-- WAL. After a server crash the table comes back empty, which costs at most one window's counts.
-- fillfactor leaves room in each page for the updates to stay HOT (count is not indexed).
CREATE UNLOGGED TABLE rate_windows (
  credential    text NOT NULL,
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL CHECK (count >= 0),
  PRIMARY KEY (credential, window_start)
) WITH (fillfactor = 70);
