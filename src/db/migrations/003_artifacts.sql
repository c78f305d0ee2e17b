-- Artifacts: zip archives in the artifact store (see src/storage), one row per archive.
-- The file is written first and the row inserted after, so a row never lacks its file; a
-- file without a row (a crash in between, a failed delete) is removed by the orphan sweep.

CREATE TABLE artifacts (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id      uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  job_id       uuid,                       -- the job that produced it (no FK: jobs are deleted with their artifacts by the service)
  run_id       text,                       -- workflow run / step, when workflows produce artifacts
  step_id      text,
  origin       text NOT NULL CHECK (origin IN ('job', 'upload')),
  upload_mode  text CHECK (upload_mode IS NULL OR upload_mode IN ('file', 'molecules', 'archive')),
  storage_key  text NOT NULL UNIQUE,
  size_bytes   bigint NOT NULL CHECK (size_bytes >= 0),
  sha256       text NOT NULL,
  content_type text NOT NULL DEFAULT 'application/zip',
  job_type     text NOT NULL,
  manifest     jsonb NOT NULL,
  record_count integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz
);
CREATE INDEX artifacts_user_created_idx ON artifacts (user_id, created_at DESC, id DESC);
CREATE INDEX artifacts_job_idx ON artifacts (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX artifacts_expires_idx ON artifacts (expires_at) WHERE expires_at IS NOT NULL;

-- One row per port of an artifact (the list endpoint lists ports): kind, format, record count.
CREATE TABLE artifact_ports (
  artifact_id  uuid NOT NULL REFERENCES artifacts(id) ON DELETE CASCADE,
  port         text NOT NULL,
  data_kind    text NOT NULL,
  data_format  text NOT NULL,
  record_count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (artifact_id, port)
);
CREATE INDEX artifact_ports_kind_idx ON artifact_ports (data_kind, data_format);
