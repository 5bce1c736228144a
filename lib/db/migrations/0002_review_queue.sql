-- The review queue of the moderation console (lib/reviews, lib/db/schema.ts). Recorded
-- moderations keep their text for REVIEW_RETENTION_DAYS; the purge sets `text` to NULL and
-- `text_purged_at`, and expires items still pending. Decisions live in review_decisions, an
-- append-only audit log: a trigger refuses UPDATE and DELETE on it.
CREATE TABLE IF NOT EXISTS review_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  text text,
  summary text NOT NULL,
  primary_issue text NOT NULL,
  severity text NOT NULL,
  score real NOT NULL,
  verdict jsonb NOT NULL,
  model_versions jsonb NOT NULL DEFAULT '[]'::jsonb,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'overturned', 'expired')),
  decided_at timestamptz,
  decided_by text,
  text_purged_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS review_items_status_created_idx ON review_items (status, created_at DESC, id);

CREATE TABLE IF NOT EXISTS review_decisions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  review_id uuid NOT NULL,
  decision text NOT NULL CHECK (decision IN ('confirm', 'overturn')),
  moderator text NOT NULL,
  note text NOT NULL DEFAULT '',
  client_decision_id text UNIQUE,
  summary text NOT NULL,
  primary_issue text NOT NULL,
  severity text NOT NULL,
  score real NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS review_decisions_created_idx ON review_decisions (created_at DESC, id);

CREATE OR REPLACE FUNCTION review_decisions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'review_decisions is append-only'; END $$;

DROP TRIGGER IF EXISTS review_decisions_no_change ON review_decisions;

CREATE TRIGGER review_decisions_no_change BEFORE UPDATE OR DELETE ON review_decisions FOR EACH ROW EXECUTE FUNCTION review_decisions_append_only();
