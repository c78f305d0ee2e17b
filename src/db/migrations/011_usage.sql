-- The monthly allowance of utility and inference calls (src/modules/usage/store.ts;
-- docs/usage.md): one row per account and calendar month (UTC), with its calls by kind. A
-- call is counted by one upsert that adds to the row only while the total stays within the
-- allowance, in the transaction that records the call: the row lock makes the count exact
-- under concurrency and across API instances, and a refused or rolled-back call counts nothing.
CREATE TABLE usage_months (
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  month      date NOT NULL CHECK (extract(day FROM month) = 1),   -- the month's first day (UTC)
  utilities  integer NOT NULL DEFAULT 0 CHECK (utilities >= 0),
  inference  integer NOT NULL DEFAULT 0 CHECK (inference >= 0),
  PRIMARY KEY (user_id, month)
);
