-- The science lookups' response cache (src/modules/lookups/cache.ts, docs/lookups.md): one row
-- per upstream answer, shared by every instance on the database and kept across restarts, so
-- a repeat within the TTL (24 h) costs no upstream call.
--
-- The key is 'lookup:v1:' || the SHA-256 (hex) of source, parser version, operation,
-- parameters and query: no query text (which may be a proprietary structure) is stored.
CREATE TABLE lookup_cache (
  key         text PRIMARY KEY CHECK (key ~ '^lookup:v[0-9]+:[0-9a-f]{64}$'),
  value       jsonb NOT NULL,               -- the source's answer: status, record_id, title, url, release, data
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Expired rows are never read (get filters on expires_at) and are deleted in batches by the
-- purge, which walks this index.
CREATE INDEX lookup_cache_expires_at ON lookup_cache (expires_at);
