-- What a job row runs for (src/compute/store.ts; docs/utilities.md): `job`, submitted through
-- /jobs and charged to the wallet, or `utility` (and later `inference`), an asynchronous
-- request of those features, run by the same runtime (queue, retries, crash safety) but counted
-- against the monthly allowance instead of charged: its rate and reservation are 0. Each
-- feature lists and reads only its own rows.
ALTER TABLE jobs ADD COLUMN origin text NOT NULL DEFAULT 'job' CHECK (origin IN ('job', 'utility', 'inference'));
CREATE INDEX jobs_user_origin_created ON jobs (user_id, origin, created_at DESC);
