-- The completion event feed (GET /api/v1/events). See docs/events.md.
--
-- Gap-free by construction: an event's id comes from its account's row in event_counters,
-- incremented (and so row-locked) inside the writer's own transaction. A second writer for
-- the same account waits on that row lock until the first commits, so ids are handed out
-- in commit order: once event N is visible, every event below N already is. A rolled-back
-- writer rolls its increment back too, so per-account ids are dense (1, 2, 3, ...).

CREATE TABLE event_counters (
  user_id        uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  last_id        bigint NOT NULL DEFAULT 0,  -- highest event id handed out (and committed, once visible)
  purged_through bigint NOT NULL DEFAULT 0   -- every event id <= this was removed by retention
);

CREATE TABLE events (
  user_id         uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  event_id        bigint NOT NULL,           -- per-account position in the feed
  kind            text NOT NULL CHECK (kind IN ('job', 'workflow_run')),
  subject_id      text NOT NULL CHECK (length(subject_id) BETWEEN 1 AND 100),
  status          text NOT NULL,
  workflow_run_id text CHECK (workflow_run_id IS NULL OR length(workflow_run_id) BETWEEN 1 AND 100),
  occurred_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (user_id, event_id),
  -- Event status is the subject's terminal status (docs/api-decisions.md, "The contract the code relies on").
  CONSTRAINT events_terminal_status CHECK (
    (kind = 'job' AND status IN ('completed', 'error', 'cancelled'))
    OR (kind = 'workflow_run' AND status IN ('completed', 'failed', 'cancelled'))
  )
);
-- Exactly one terminal event per job: a second terminal transition (cancel racing
-- completion) fails its whole transaction with a unique violation.
CREATE UNIQUE INDEX events_one_per_job ON events (user_id, subject_id) WHERE kind = 'job';
CREATE INDEX events_subject_idx ON events (user_id, subject_id, event_id);
CREATE INDEX events_occurred_idx ON events (occurred_at);
