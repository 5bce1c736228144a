-- The queue worst first, and claims (docs/decisions/191-queue-order-and-claims.md). `priority` is
-- lower for worse items (lib/reviews/priority.ts computes it when a text is recorded; the UPDATE
-- below is the same rule for existing rows): self-harm 0, threats 1, then 2 + 3 × severity rank
-- (critical 0 … low 3) + category rank (slur, identity attack, sexism 0; insult, toxicity 1;
-- others 2). The queue is read by (priority, created_at, id). `claimed_by`/`claimed_at`: the
-- moderator working on an item and since when; a claim older than ten minutes is stale (ignored
-- and taken over).
ALTER TABLE review_items ADD COLUMN IF NOT EXISTS priority smallint NOT NULL DEFAULT 14;
ALTER TABLE review_items ADD COLUMN IF NOT EXISTS claimed_by text;
ALTER TABLE review_items ADD COLUMN IF NOT EXISTS claimed_at timestamptz;
UPDATE review_items SET priority = CASE
  WHEN primary_issue = 'self_harm' OR COALESCE((verdict #>> '{label,rules,self_harm_flag}')::boolean, false) THEN 0
  WHEN primary_issue = 'threat' OR COALESCE((verdict #>> '{label,rules,threat_detected}')::boolean, false) THEN 1
  ELSE 2
    + 3 * CASE severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END
    + CASE WHEN primary_issue IN ('slur', 'identity_attack', 'sexism') THEN 0 WHEN primary_issue IN ('insult', 'toxicity') THEN 1 ELSE 2 END
END;
CREATE INDEX IF NOT EXISTS review_items_status_priority_idx ON review_items (status, priority, created_at, id);
