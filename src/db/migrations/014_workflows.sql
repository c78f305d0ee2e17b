-- Workflows (docs/workflows.md): saved definitions with immutable versions, their shares, and
-- runs with one row per step. Definitions and shares are written by
-- src/modules/workflows/definitions-store.ts, runs and steps by src/workflows/runs-store.ts.

-- A definition: its latest version is `latest_version`; every save adds a version row.
-- Soft-deleted (deleted_at) and restorable for 30 days, then purged.
CREATE TABLE workflows (
  id             uuid PRIMARY KEY,
  user_id        uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name           text NOT NULL,
  description    text NOT NULL DEFAULT '',
  latest_version integer NOT NULL,
  forked_from    jsonb,                 -- {workflow_id, version} or {template_id}
  deleted_at     timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workflows_user_idx ON workflows (user_id, updated_at DESC);

CREATE TABLE workflow_versions (
  workflow_id   uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  version       integer NOT NULL,
  spec          jsonb NOT NULL,
  created_by    uuid NOT NULL,
  restored_from integer,                -- a restore of an old version copies it here
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workflow_id, version)
);

-- A share with one user (grantee_id) or by link (token_hash: SHA-256 of the token, which is
-- shown once). Revoked shares keep their row (revoked_at) and grant nothing.
CREATE TABLE workflow_shares (
  id          uuid PRIMARY KEY,
  workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  grantee_id  uuid REFERENCES users(id) ON DELETE CASCADE,
  token_hash  text UNIQUE,
  permission  text NOT NULL CHECK (permission IN ('view', 'run')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  CHECK ((grantee_id IS NULL) <> (token_hash IS NULL))
);
CREATE UNIQUE INDEX workflow_shares_grantee_idx ON workflow_shares (workflow_id, grantee_id) WHERE revoked_at IS NULL AND grantee_id IS NOT NULL;
CREATE INDEX workflow_shares_grantee_lookup ON workflow_shares (grantee_id) WHERE revoked_at IS NULL;

-- A run: the spec it ran (a copy: definitions change), its inputs, its money and its state.
-- `running` covers queued (no step job has started yet: derived when read).
CREATE TABLE workflow_runs (
  id              uuid PRIMARY KEY,
  user_id         uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key_id          uuid,
  workflow_id     uuid,                 -- no reference: the definition may be purged
  version         integer,
  template_id     text,
  name            text NOT NULL,
  spec            jsonb NOT NULL,
  inputs          jsonb NOT NULL,
  status          text NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
  message         text NOT NULL DEFAULT '',
  reserved_micros bigint NOT NULL,
  charged_micros  bigint NOT NULL DEFAULT 0,
  rerun_of        uuid,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz
);
CREATE INDEX workflow_runs_user_idx ON workflow_runs (user_id, created_at DESC);

-- One row per step: `pending` until its inputs are ready, `started` with its job (the job row
-- carries queued/running), then terminal. `signature` hashes the step's job type, resource,
-- params and the signatures of what it reads, for rerun with reuse_completed.
CREATE TABLE workflow_run_steps (
  run_id             uuid NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  step_id            text NOT NULL,
  position           integer NOT NULL,
  job_type           text NOT NULL,
  state              text NOT NULL CHECK (state IN ('pending', 'started', 'completed', 'failed', 'cancelled', 'skipped', 'reused')),
  job_id             uuid,
  signature          text NOT NULL,
  planned_micros     bigint NOT NULL,
  expected_runtime_sec double precision NOT NULL,
  result_artifact_id uuid,
  charged_micros     bigint NOT NULL DEFAULT 0,
  message            text NOT NULL DEFAULT '',
  PRIMARY KEY (run_id, step_id)
);

ALTER TABLE jobs ADD COLUMN workflow_run_id uuid;
CREATE INDEX jobs_workflow_run_idx ON jobs (workflow_run_id) WHERE workflow_run_id IS NOT NULL;
