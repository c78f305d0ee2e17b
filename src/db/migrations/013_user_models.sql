-- Users' trained MPNN models (src/modules/models/store.ts; docs/models.md): one row per
-- account and model name. The weights are a member of an artifact (the training job's result
-- artifact, port `model`), detached from the job when the model is registered so that deleting
-- the job keeps the model; deleting the model deletes that artifact. The row is written in
-- the transaction that completes the training job, so a model is registered exactly when its
-- job completes, never half.
CREATE TABLE user_models (
  id                    uuid PRIMARY KEY,
  user_id               uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name                  text NOT NULL CHECK (name ~ '^[A-Za-z0-9._-]{1,64}$'),
  task                  text NOT NULL CHECK (task IN ('regression', 'classification')),
  target                text NOT NULL,
  units                 text,
  trained_by_process_id uuid,            -- the mpnn_train job (no reference: the job may be deleted)
  weights_artifact_id   uuid NOT NULL,   -- artifact holding port `model`, record `model`
  info                  jsonb NOT NULL,  -- n_train, n_val, n_test, split, metrics, hyperparameters, size_bytes, ensemble_size
  created_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, name)
);
