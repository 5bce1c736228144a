-- Policy versions (docs/decisions/172-policy-from-decisions.md): every threshold change is a row,
-- append-only like the review audit log (a trigger refuses UPDATE and DELETE). `thresholds` holds
-- every override in force from that version on; a category it does not name keeps its shipped
-- threshold, so no row at all means the shipped thresholds (version 0). `old_threshold` and
-- `new_threshold` are the category's override before and after (NULL = shipped); a revert is a new
-- row naming the version it reverts.
CREATE TABLE IF NOT EXISTS policy_versions (
  version integer PRIMARY KEY CHECK (version > 0),
  category text NOT NULL CHECK (category IN ('sexism', 'overall', 'insult', 'threat', 'identity_attack', 'profanity')),
  old_threshold real,
  new_threshold real CHECK (new_threshold IS NULL OR (new_threshold > 0 AND new_threshold < 1)),
  thresholds jsonb NOT NULL DEFAULT '{}'::jsonb,
  changed_by text NOT NULL,
  reason text NOT NULL,
  reverts integer,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE OR REPLACE FUNCTION policy_versions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'policy_versions is append-only'; END $$;

DROP TRIGGER IF EXISTS policy_versions_no_change ON policy_versions;

CREATE TRIGGER policy_versions_no_change BEFORE UPDATE OR DELETE ON policy_versions FOR EACH ROW EXECUTE FUNCTION policy_versions_append_only();
