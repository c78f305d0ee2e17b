-- Compute engines (docs/engines.md). A job's lane names the engines its payload needs ('' for
-- none: RDKit work): each lane is a queue of its own, and a worker fetches only from the lanes
-- whose engines it found at start. Written by src/compute/store.ts.
ALTER TABLE jobs ADD COLUMN lane text NOT NULL DEFAULT '';

-- The live job runtimes and the engines each found (src/compute/workers-store.ts, its only
-- writer): what estimate and submit check (503 engine-unavailable) and GET /engines reports.
CREATE TABLE compute_workers (
  worker_id text PRIMARY KEY,
  hostname text NOT NULL,
  pid integer NOT NULL,
  slots integer NOT NULL,
  engines jsonb NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX compute_workers_seen ON compute_workers (seen_at);
