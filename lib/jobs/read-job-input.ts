/**
 * Reads a bulk job's body as it streams in (docs/decisions/165-bulk-moderation-jobs.md): JSON Lines
 * (one `{"text": ...}` object per line) or CSV with a header row. Each input line becomes one
 * JobInputLine, with its text or the error /v1/moderate/text would have answered for it, so a bad
 * line never fails the job. Memory stays bounded: a line (a CSV record) is held only up to
 * `maxLineBytes` (the rest of a longer one is skipped, and that line answers 413), and nothing else
 * is kept.
 *
 * Each format has its reader (read-job-json-lines.ts, read-job-csv.ts); what they share is in
 * job-input-limits.ts.
 */
export { JobInputFormatError, JobInputTooLargeError, type JobInputLine, type ReadJobInputOptions } from './job-input-limits';
export { readCsvRows } from './read-job-csv';
export { readJsonLines } from './read-job-json-lines';
