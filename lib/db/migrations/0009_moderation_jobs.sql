-- Bulk moderation jobs (docs/decisions/165-bulk-moderation-jobs.md). A job's input lines, and
-- each line's result once scored, live in moderation_job_lines; the work is cut into chunks of
-- consecutive lines (moderation_job_chunks) that any instance may claim. A chunk's results are
-- written only where a line has none yet, in the same transaction that marks the chunk done and
-- counts it in its job, so a chunk run twice (an instance killed mid-chunk) scores no line twice.
-- `result` is json, not jsonb: a result is stored and answered byte for byte, its fields in the
-- single endpoint's order.
CREATE TABLE IF NOT EXISTS moderation_jobs (
  id uuid PRIMARY KEY,
  owner text NOT NULL,
  state text NOT NULL DEFAULT 'receiving',
  format text NOT NULL,
  columns jsonb,
  text_column text,
  explain boolean NOT NULL DEFAULT false,
  callback_url text,
  callback_state text NOT NULL DEFAULT 'none',
  callback_attempts integer NOT NULL DEFAULT 0,
  metadata jsonb,
  total integer NOT NULL DEFAULT 0,
  done integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  CONSTRAINT moderation_jobs_state_check CHECK (state IN ('receiving', 'queued', 'running', 'succeeded', 'failed', 'cancelled')),
  CONSTRAINT moderation_jobs_format_check CHECK (format IN ('jsonl', 'csv')),
  CONSTRAINT moderation_jobs_callback_state_check CHECK (callback_state IN ('none', 'pending', 'delivered', 'failed'))
);
CREATE INDEX IF NOT EXISTS moderation_jobs_owner_idx ON moderation_jobs (owner, created_at DESC);
CREATE INDEX IF NOT EXISTS moderation_jobs_state_idx ON moderation_jobs (state);

CREATE TABLE IF NOT EXISTS moderation_job_lines (
  job_id uuid NOT NULL,
  line integer NOT NULL,
  input text,
  row jsonb,
  result json,
  CONSTRAINT moderation_job_lines_pkey PRIMARY KEY (job_id, line),
  CONSTRAINT moderation_job_lines_job_id_fkey FOREIGN KEY (job_id) REFERENCES moderation_jobs (id) ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS moderation_job_chunks (
  job_id uuid NOT NULL,
  chunk integer NOT NULL,
  first_line integer NOT NULL,
  last_line integer NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  CONSTRAINT moderation_job_chunks_pkey PRIMARY KEY (job_id, chunk),
  CONSTRAINT moderation_job_chunks_job_id_fkey FOREIGN KEY (job_id) REFERENCES moderation_jobs (id) ON DELETE CASCADE,
  CONSTRAINT moderation_job_chunks_state_check CHECK (state IN ('pending', 'running', 'done', 'cancelled'))
);
CREATE INDEX IF NOT EXISTS moderation_job_chunks_state_idx ON moderation_job_chunks (state, lease_until);
