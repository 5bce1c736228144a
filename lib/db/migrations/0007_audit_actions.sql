-- The audit log says what happened (docs/decisions/160-audit-log-and-reason-codes.md). Each row
-- gains an explicit `action` (decided, bulk_decided, undone, reopened) and a `reason_code` from the
-- configured list (REVIEW_REASON_CODES); `decision` is the verdict the row is about (for undone and
-- reopened rows, the verdict taken back; rows written before this migration keep `undo`).
-- Existing rows get their action in one UPDATE with the append-only trigger off for that
-- statement only: it fills the new column and changes no recorded value.
ALTER TABLE review_decisions ADD COLUMN IF NOT EXISTS action text;
ALTER TABLE review_decisions ADD COLUMN IF NOT EXISTS reason_code text NOT NULL DEFAULT '';
ALTER TABLE review_decisions DISABLE TRIGGER review_decisions_no_change;
UPDATE review_decisions SET action = CASE WHEN decision = 'undo' THEN 'undone' ELSE 'decided' END WHERE action IS NULL;
ALTER TABLE review_decisions ENABLE TRIGGER review_decisions_no_change;
ALTER TABLE review_decisions ALTER COLUMN action SET NOT NULL;
ALTER TABLE review_decisions ADD CONSTRAINT review_decisions_action_check CHECK (action IN ('decided', 'bulk_decided', 'undone', 'reopened'));
-- The audit log's filters: by moderator, newest first (the others scan: at most a few rows per item).
CREATE INDEX IF NOT EXISTS review_decisions_moderator_idx ON review_decisions (moderator, created_at DESC, id);

-- Flagged texts that were answered but not queued, counted per hour, reason and client
-- (`key:<key id>`, or `anonymous` for keyless clients: addresses are not stored). The console
-- shows these counts so a quota or the storage cap never drops items silently.
CREATE TABLE IF NOT EXISTS review_not_queued (
  hour timestamptz NOT NULL,
  reason text NOT NULL CHECK (reason IN ('quota', 'evicted')),
  client text NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (hour, reason, client)
);
