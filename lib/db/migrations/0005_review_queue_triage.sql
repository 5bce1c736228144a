-- The review queue for triage (docs/decisions/065-review-queue-triage.md): one item per distinct
-- text. `text_hash` is SHA-256 of the text after NFKC and whitespace collapsing (lib/reviews/
-- text-hash.ts computes the same in the application); `created_at` is when the text was first
-- queued, `last_seen_at` the latest sighting and `seen_count` how often it was seen. `sources`
-- lists the endpoints that saw it (text, batch). Decisions gain `undo` (the console's short undo
-- window), appended to the audit log like any other decision.
ALTER TABLE review_items ADD COLUMN IF NOT EXISTS text_hash text;
ALTER TABLE review_items ADD COLUMN IF NOT EXISTS seen_count integer NOT NULL DEFAULT 1;
ALTER TABLE review_items ADD COLUMN IF NOT EXISTS last_seen_at timestamptz;
ALTER TABLE review_items ADD COLUMN IF NOT EXISTS sources text[] NOT NULL DEFAULT '{}';

-- Existing rows: the same hash computed in SQL (PostgreSQL 13+ has normalize()).
UPDATE review_items SET text_hash = encode(sha256(convert_to(btrim(regexp_replace(normalize(text, NFKC), '\s+', ' ', 'g')), 'UTF8')), 'hex') WHERE text IS NOT NULL AND text_hash IS NULL;
UPDATE review_items SET last_seen_at = created_at WHERE last_seen_at IS NULL;
ALTER TABLE review_items ALTER COLUMN last_seen_at SET DEFAULT now();
ALTER TABLE review_items ALTER COLUMN last_seen_at SET NOT NULL;

-- Fold existing copies into one item per hash: the keeper is a decided copy if any (its
-- decision stands), else the oldest; it takes the group's count and first/last times. Pending
-- copies are deleted (they have no decisions); other decided copies keep their row and audit
-- entries but lose the hash.
WITH ranked AS (SELECT id, text_hash, row_number() OVER (PARTITION BY text_hash ORDER BY (status <> 'pending') DESC, created_at, id) AS rn, count(*) OVER (PARTITION BY text_hash) AS n, min(created_at) OVER (PARTITION BY text_hash) AS first_seen, max(created_at) OVER (PARTITION BY text_hash) AS last_seen FROM review_items WHERE text_hash IS NOT NULL) UPDATE review_items r SET seen_count = ranked.n, created_at = ranked.first_seen, last_seen_at = ranked.last_seen FROM ranked WHERE r.id = ranked.id AND ranked.rn = 1 AND ranked.n > 1;
WITH ranked AS (SELECT id, row_number() OVER (PARTITION BY text_hash ORDER BY (status <> 'pending') DESC, created_at, id) AS rn FROM review_items WHERE text_hash IS NOT NULL) DELETE FROM review_items r USING ranked WHERE r.id = ranked.id AND ranked.rn > 1 AND r.status = 'pending';
WITH ranked AS (SELECT id, row_number() OVER (PARTITION BY text_hash ORDER BY (status <> 'pending') DESC, created_at, id) AS rn FROM review_items WHERE text_hash IS NOT NULL) UPDATE review_items r SET text_hash = NULL FROM ranked WHERE r.id = ranked.id AND ranked.rn > 1;

CREATE UNIQUE INDEX IF NOT EXISTS review_items_text_hash_idx ON review_items (text_hash);
CREATE INDEX IF NOT EXISTS review_items_status_last_seen_idx ON review_items (status, last_seen_at DESC, id);

ALTER TABLE review_decisions DROP CONSTRAINT IF EXISTS review_decisions_decision_check;
ALTER TABLE review_decisions ADD CONSTRAINT review_decisions_decision_check CHECK (decision IN ('confirm', 'overturn', 'undo'));
