-- The review backlog (docs/decisions/190-review-backlog.md): a flagged text that does not fit its
-- client's hourly quota is kept with status `backlog` instead of being dropped. It is not in the
-- active queue (`pending`); moderators can list and filter it and pull it into the queue.
ALTER TABLE review_items DROP CONSTRAINT IF EXISTS review_items_status_check;
ALTER TABLE review_items ADD CONSTRAINT review_items_status_check CHECK (status IN ('pending', 'confirmed', 'overturned', 'expired', 'backlog'));
