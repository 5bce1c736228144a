-- Browser sessions on the server (decision 140): the cookie holds a random 256-bit token and
-- this table what it stands for, so DELETE /api/v1/session revokes it and every instance on one
-- database agrees. Only the token's SHA-256 is stored: reading the table hands out no live cookie.
-- `id` is the public name of a session (listing, revoking one), never the token.
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL,
  key_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  CONSTRAINT sessions_token_hash_key UNIQUE (token_hash)
);
-- A key's sessions, newest first (GET /api/v1/sessions); expired ones are purged by expires_at.
CREATE INDEX sessions_key_id_idx ON sessions (key_id, created_at DESC);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);
