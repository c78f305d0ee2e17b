-- The Assistant (docs/assistant.md): sessions, their conversation, turns with their stored
-- stream events, and plan cards. Written by src/modules/assistant/store.ts.

CREATE TABLE assistant_sessions (
  id         uuid PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assistant_sessions_user_idx ON assistant_sessions (user_id, updated_at DESC);

-- A turn: one user message and the model's work on it. Its hold is reserved in the ledger
-- under the turn's id (job_id) and settled once, when the turn leaves `running`.
CREATE TABLE assistant_turns (
  id              uuid PRIMARY KEY,
  session_id      uuid NOT NULL REFERENCES assistant_sessions(id) ON DELETE CASCADE,
  user_id         uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status          text NOT NULL CHECK (status IN ('running', 'completed', 'stopped', 'error')),
  message         text NOT NULL,
  model           text NOT NULL,
  hold_micros     bigint NOT NULL,
  input_tokens    integer NOT NULL DEFAULT 0,
  output_tokens   integer NOT NULL DEFAULT 0,
  cost_micros     bigint NOT NULL DEFAULT 0,
  error           text,
  stop_requested  boolean NOT NULL DEFAULT false,
  heartbeat_at    timestamptz NOT NULL DEFAULT now(),
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz
);
-- One running turn per session: a second concurrent start is a unique violation (409).
CREATE UNIQUE INDEX assistant_turns_one_running ON assistant_turns (session_id) WHERE status = 'running';
CREATE INDEX assistant_turns_session_idx ON assistant_turns (session_id, created_at);
CREATE INDEX assistant_turns_running_idx ON assistant_turns (heartbeat_at) WHERE status = 'running';

-- What a turn streamed, in order: read by every instance's stream endpoint (Last-Event-ID = seq).
CREATE TABLE assistant_turn_events (
  turn_id    uuid NOT NULL REFERENCES assistant_turns(id) ON DELETE CASCADE,
  seq        integer NOT NULL,
  type       text NOT NULL,
  data       json NOT NULL,              -- json, not jsonb: kept as written, in its key order
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (turn_id, seq)
);

-- The conversation a later turn sends to the model: user, assistant and tool messages.
CREATE TABLE assistant_messages (
  session_id   uuid NOT NULL REFERENCES assistant_sessions(id) ON DELETE CASCADE,
  seq          integer NOT NULL,
  turn_id      uuid NOT NULL REFERENCES assistant_turns(id) ON DELETE CASCADE,
  role         text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
  content      text NOT NULL,
  tool_calls   jsonb,
  tool_call_id text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, seq)
);

-- A plan card: a workflow run the model proposed (`request` is the run start body) with its
-- estimate. Only the user's approval starts it (run_id); a card expires 24 h after it was made.
CREATE TABLE assistant_plans (
  id          uuid PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_id  uuid NOT NULL REFERENCES assistant_sessions(id) ON DELETE CASCADE,
  turn_id     uuid NOT NULL REFERENCES assistant_turns(id) ON DELETE CASCADE,
  title       text NOT NULL,
  request     jsonb NOT NULL,
  estimate    jsonb NOT NULL,
  status      text NOT NULL CHECK (status IN ('proposed', 'approved', 'rejected')),
  run_id      uuid,
  expires_at  timestamptz NOT NULL,
  decided_at  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assistant_plans_session_idx ON assistant_plans (session_id, created_at);
