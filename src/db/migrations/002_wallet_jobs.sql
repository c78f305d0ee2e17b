-- Wallet, append-only ledger, compute jobs.

-- Cached totals of the ledger, one row per account; locked (FOR UPDATE) by every money move
-- so that concurrent submits serialise per account. balance = sum(ledger.amount_micros),
-- reserved = sum(ledger.reserved_delta_micros): tests assert both after every scenario.
CREATE TABLE wallets (
  user_id         uuid PRIMARY KEY REFERENCES users(id),
  balance_micros  bigint NOT NULL DEFAULT 0,
  reserved_micros bigint NOT NULL DEFAULT 0 CHECK (reserved_micros >= 0),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Every money move: credits, holds (reserve/release) and charges. Never updated or deleted.
CREATE TABLE ledger (
  id                    bigserial PRIMARY KEY,
  user_id               uuid NOT NULL REFERENCES users(id),
  kind                  text NOT NULL CHECK (kind IN ('credit', 'reserve', 'release', 'charge')),
  amount_micros         bigint NOT NULL,           -- effect on the balance
  reserved_delta_micros bigint NOT NULL DEFAULT 0, -- effect on the reserved total
  job_id                uuid,
  key_id                uuid,                      -- the API key that started the work, if any
  note                  text,
  created_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_user_idx ON ledger (user_id, id);
CREATE INDEX ledger_key_month_idx ON ledger (key_id, created_at) WHERE kind = 'reserve';
CREATE INDEX ledger_job_idx ON ledger (job_id);

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only';
END $$;
CREATE TRIGGER ledger_no_update BEFORE UPDATE OR DELETE ON ledger FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE TABLE jobs (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),  -- process_id
  user_id              uuid NOT NULL REFERENCES users(id),
  key_id               uuid,                                        -- no FK: keys are hard-deleted
  job_name             text NOT NULL,
  job_type             text NOT NULL,
  resource             text NOT NULL,
  payload              jsonb NOT NULL,
  status               text NOT NULL DEFAULT 'queued'
                       CHECK (status IN ('queued', 'dispatched', 'running', 'completed', 'error', 'cancelled')),
  message              text NOT NULL DEFAULT '',
  progress             real NOT NULL DEFAULT 0,
  attempts             integer NOT NULL DEFAULT 0,
  queue_job_id         text,          -- the pg-boss job that currently carries it
  worker_id            text,          -- the worker that claimed it
  heartbeat_at         timestamptz,
  expected_runtime_sec double precision NOT NULL,
  rate_micros_per_sec  bigint NOT NULL,
  reserved_micros      bigint NOT NULL,
  charged_micros       bigint,
  runtime_seconds      double precision NOT NULL DEFAULT 0,
  cancel_requested     boolean NOT NULL DEFAULT false,
  result_artifact_id   uuid,
  info                 jsonb NOT NULL DEFAULT '{}',
  created_at           timestamptz NOT NULL DEFAULT now(),
  dispatched_at        timestamptz,
  started_at           timestamptz,
  finished_at          timestamptz
);
CREATE INDEX jobs_user_created_idx ON jobs (user_id, created_at DESC);
CREATE INDEX jobs_active_idx ON jobs (status, heartbeat_at) WHERE status IN ('queued', 'dispatched', 'running');
