-- Accounts, sessions, API keys, idempotency, login attempts, settings.

CREATE TABLE settings (
  key   text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email         text NOT NULL,
  password_hash text NOT NULL,
  tier          smallint NOT NULL DEFAULT 0 CHECK (tier BETWEEN 0 AND 3),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

-- A login session: one access token lineage and one refresh-token chain.
CREATE TABLE sessions (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id        uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at     timestamptz NOT NULL DEFAULT now(),
  revoked_at     timestamptz,
  revoked_reason text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Refresh tokens are stored only as SHA-256 hashes; each is single use.
CREATE TABLE refresh_tokens (
  token_hash  text PRIMARY KEY,
  session_id  uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

CREATE TABLE api_keys (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id                uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name                   text NOT NULL,
  public_prefix          text NOT NULL,         -- the 8 characters after crk_
  secret_hash            text NOT NULL,         -- SHA-256 of the whole secret, hex
  scopes                 text[] NOT NULL,
  allow_structure_search boolean NOT NULL DEFAULT false,
  spend_ceiling_micros   bigint CHECK (spend_ceiling_micros IS NULL OR spend_ceiling_micros >= 0),
  created_at             timestamptz NOT NULL DEFAULT now(),
  expires_at             timestamptz,
  last_used_at           timestamptz,
  rotated_at             timestamptz,
  revoked_at             timestamptz
);
CREATE UNIQUE INDEX api_keys_user_name_key ON api_keys (user_id, name);
CREATE UNIQUE INDEX api_keys_prefix_key ON api_keys (public_prefix);

-- One row per (account, Idempotency-Key): the first request's fingerprint and, once done, its response.
CREATE TABLE idempotency_keys (
  user_id         uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key             text NOT NULL,
  method          text NOT NULL,
  path            text NOT NULL,
  request_hash    text NOT NULL,
  state           text NOT NULL CHECK (state IN ('in_progress', 'done')),
  response_status integer,
  response_body   text,
  response_type   text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- Login attempts for the per-account and per-IP limits (kept for the longest window).
CREATE TABLE login_attempts (
  id          bigserial PRIMARY KEY,
  email_lower text NOT NULL,
  ip          text NOT NULL,
  succeeded   boolean NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_email_idx ON login_attempts (email_lower, created_at);
CREATE INDEX login_attempts_ip_idx ON login_attempts (ip, created_at);
