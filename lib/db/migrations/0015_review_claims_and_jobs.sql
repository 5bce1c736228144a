-- Claims bound to the caller, the queue ordered by score within its rank, and bulk jobs feeding the
-- review queue (docs/decisions/205-claims-bound-to-the-caller.md, 206-job-rows-reach-review.md).
--
-- `claimed_by` now holds the claimant's opaque principal id (`key:<id>`, `session:<id>`,
-- `browser:<hash>`, `anonymous`); `claim_label` the name shown for it. A claim made before this
-- migration keeps its name as its label (and, owned by no principal, simply goes stale).
ALTER TABLE review_items ADD COLUMN IF NOT EXISTS claim_label text;
UPDATE review_items SET claim_label = claimed_by WHERE claimed_by IS NOT NULL AND claim_label IS NULL;
-- Every open console reads the claims that hold every few seconds (GET /api/v1/reviews/claims).
CREATE INDEX IF NOT EXISTS review_items_claimed_idx ON review_items (claimed_at) WHERE claimed_by IS NOT NULL;

-- `priority` (lib/reviews/priority.ts): rank × 100000 + the score's distance from 1 in steps of
-- 0.0001. Ranks: self-harm 0–3 and threats 4–7 by severity (critical first); the rest
-- 8 + 3 × severity rank + category rank (slur, identity attack, sexism 0; insult, toxicity 1; others 2).
ALTER TABLE review_items ALTER COLUMN priority TYPE integer;
ALTER TABLE review_items ALTER COLUMN priority SET DEFAULT 2000000;
UPDATE review_items SET priority = 100000 * (
  CASE WHEN primary_issue = 'self_harm' OR COALESCE((verdict #>> '{label,rules,self_harm_flag}')::boolean, false) THEN 0
       WHEN primary_issue = 'threat' OR COALESCE((verdict #>> '{label,rules,threat_detected}')::boolean, false) THEN 4
       ELSE 8 + CASE WHEN primary_issue IN ('slur', 'identity_attack', 'sexism') THEN 0 WHEN primary_issue IN ('insult', 'toxicity') THEN 1 ELSE 2 END
  END
  + CASE WHEN primary_issue = 'self_harm' OR primary_issue = 'threat'
              OR COALESCE((verdict #>> '{label,rules,self_harm_flag}')::boolean, false)
              OR COALESCE((verdict #>> '{label,rules,threat_detected}')::boolean, false) THEN 1 ELSE 3 END
    * CASE severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END
) + (10000 - round(LEAST(1, GREATEST(0, score))::numeric * 10000)::integer);

-- A job may opt out of review; its flagged rows are recorded for review unless it did.
ALTER TABLE moderation_jobs ADD COLUMN IF NOT EXISTS review boolean NOT NULL DEFAULT true;

-- Where a review item was seen in a bulk job: one row per item and job, with the first line it
-- was on. Gone with its item (eviction) or its job (expiry).
CREATE TABLE IF NOT EXISTS review_item_jobs (
  review_id uuid NOT NULL,
  job_id uuid NOT NULL,
  line integer NOT NULL,
  CONSTRAINT review_item_jobs_pkey PRIMARY KEY (review_id, job_id),
  CONSTRAINT review_item_jobs_review_id_fkey FOREIGN KEY (review_id) REFERENCES review_items (id) ON DELETE CASCADE,
  CONSTRAINT review_item_jobs_job_id_fkey FOREIGN KEY (job_id) REFERENCES moderation_jobs (id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS review_item_jobs_job_idx ON review_item_jobs (job_id, review_id);
