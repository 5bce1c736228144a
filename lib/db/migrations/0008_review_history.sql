-- An item's history: the review item shows every audit entry of its own, newest
-- first, through GET /api/v1/reviews/audit?review_id=..., so that lookup reads an index rather than
-- the whole append-only log.
CREATE INDEX review_decisions_review_id_idx ON review_decisions (review_id, created_at DESC, id);
