-- Jobs left running with every chunk done (docs/decisions/165-bulk-moderation-jobs.md): before the
-- chunk completion took the job's row lock, two runners finishing a job's last two chunks together on
-- PostgreSQL could each see the other's chunk still open, and neither marked the job finished. This
-- finishes such jobs once; from now on the lock prevents them.
UPDATE moderation_jobs j
   SET state = 'succeeded', finished_at = now()
 WHERE j.state IN ('queued', 'running')
   AND EXISTS (SELECT 1 FROM moderation_job_chunks c WHERE c.job_id = j.id)
   AND NOT EXISTS (SELECT 1 FROM moderation_job_chunks c WHERE c.job_id = j.id AND c.state IN ('pending', 'running'));
