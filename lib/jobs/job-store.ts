/**
 * Bulk moderation jobs in the database (migration 0009, docs/decisions/165-bulk-moderation-jobs.md).
 *
 * A job's input lines are stored as they stream in, each with its text (or, for a refused line, its
 * error as the result); its work is cut into chunks of consecutive lines. A chunk is claimed with a
 * lease that its runner renews; a chunk whose lease ran out (its instance died) is claimed again.
 * Results are written only to lines that have none, in the transaction that marks the chunk done
 * and adds to its job's counts, so a chunk run twice writes and counts every line once.
 *
 * A finished job expires `retentionMs` after it finished (docs/decisions/186-job-expiry-and-chunk-timing.md): from
 * then on the store answers as if it did not exist, and the sweep (expire-jobs.ts) deletes its
 * lines, chunks and row in short statements.
 *
 * One store, its queries grouped by who asks them: the upload (job-upload-queries.ts), the runners
 * (job-chunk-queries.ts), an owner's requests (job-owner-queries.ts), the callback sender
 * (job-callback-queries.ts) and the expiry sweep (job-expiry-queries.ts).
 */
import type { AppDb } from '@/lib/db/open-database';
import { jobCallbackQueries } from './job-callback-queries';
import { jobChunkQueries } from './job-chunk-queries';
import { jobExpiry, jobExpiryQueries, type JobStoreOptions } from './job-expiry-queries';
import { jobOwnerQueries } from './job-owner-queries';
import { jobUploadQueries } from './job-upload-queries';

export type { ModerationJobRow } from '@/lib/db/schema';
export type { ChunkRef, ClaimedChunk } from './job-chunk-queries';
export type { ResultRow } from './job-owner-queries';
export type { NewJob, StoredLine } from './job-upload-queries';

export function createJobStore(db: AppDb, options: JobStoreOptions = {}) {
  const expiry = jobExpiry(options);
  return {
    ...jobExpiryQueries(db, expiry),
    ...jobUploadQueries(db),
    ...jobChunkQueries(db),
    ...jobOwnerQueries(db, expiry),
    ...jobCallbackQueries(db),
  };
}

export type JobStore = ReturnType<typeof createJobStore>;
