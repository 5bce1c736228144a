-- A job's lines are written a million at a time (docs/decisions/201-job-uploads-staged.md): the
-- foreign key to moderation_jobs checked every line with a query of its own, half the cost of
-- storing it. The lines are deleted with their job by the code that deletes a job (a refused or
-- stale upload, the expiry sweep), which is all that the cascade did.
ALTER TABLE moderation_job_lines DROP CONSTRAINT IF EXISTS moderation_job_lines_job_id_fkey;
