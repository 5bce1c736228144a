/**
 * One file on purpose: drizzle-kit (drizzle.config.ts) and the schema-matches-migrations test read every
 * table from this one module and compare it with the migrations as a whole (decision 095).
 *
 * Every table of the database (drizzle), as the SQL migrations in lib/db/migrations leave it:
 * columns, defaults, CHECK constraints, index names and column order (DESC included).
 * lib/db/schema-matches-migrations.integration.test.ts builds this schema with drizzle-kit and compares it
 * with a migrated database, on PGlite and on PostgreSQL (docs/decisions/095-one-schema-source.md);
 * a migration that changes the database changes this file too.
 *
 * Embeddings are `real[]` so the schema runs on any PostgreSQL; where pgvector exists, migration
 * 0001 adds a generated `vector(128)` copy with an HNSW index for nearest-neighbour search
 * (docs/decisions/011-memory-bank-storage.md). That column is not declared here: drizzle selects
 * every declared column, and it does not exist without pgvector.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  primaryKey,
  integer,
  json,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});

export const persons = pgTable(
  'persons',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    relationship: text('relationship').notNull().default(''),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** Kept in step with face_embeddings inside the same transactions: listing never counts rows. */
    embeddingCount: integer('embedding_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // The listing's order (oldest first, id as the tie-break).
  (t) => [index('persons_created_at_idx').on(t.createdAt, t.id)],
);

export const faceEmbeddings = pgTable(
  'face_embeddings',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    personId: uuid('person_id').notNull(),
    embedding: real('embedding').array().notNull(),
    modelVersion: text('model_version').notNull(),
    /** Detector confidence of the face, [0, 1]. */
    quality: real('quality').notNull(),
    /** Shorter side of the face box in image pixels. */
    faceSizePx: integer('face_size_px').notNull(),
    /** Only with STORE_FACE_IMAGES=true; deleted with the embedding. */
    image: bytea('image'),
    imageFormat: text('image_format'),
    /** Added with confirm_mismatch=true over a FACE_MISMATCH refusal (migration 0004). */
    mismatchConfirmed: boolean('mismatch_confirmed').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // Named as PostgreSQL names the inline `REFERENCES` of migration 0000.
    foreignKey({ name: 'face_embeddings_person_id_fkey', columns: [t.personId], foreignColumns: [persons.id] }).onDelete('cascade'),
    check('face_embeddings_embedding_check', sql`array_length(${t.embedding}, 1) = 128`),
    index('face_embeddings_person_id_idx').on(t.personId),
  ],
);

export type PersonRow = typeof persons.$inferSelect;
export type FaceEmbeddingRow = typeof faceEmbeddings.$inferSelect;

/**
 * The review queue (migration 0002): server-side moderations whose summary is not `likely_safe`.
 * `text` is NULL once REVIEW_RETENTION_DAYS have passed (`purgeExpiredTexts` in lib/reviews/review-queue-queries.ts).
 */
export const reviewItems = pgTable(
  'review_items',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    text: text('text'),
    summary: text('summary').notNull(),
    primaryIssue: text('primary_issue').notNull(),
    severity: text('severity').notNull(),
    score: real('score').notNull(),
    verdict: jsonb('verdict').$type<Record<string, unknown>>().notNull(),
    modelVersions: jsonb('model_versions').$type<string[]>().notNull().default([]),
    status: text('status').$type<'pending' | 'confirmed' | 'overturned' | 'expired' | 'backlog'>().notNull().default('pending'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decidedBy: text('decided_by'),
    textPurgedAt: timestamp('text_purged_at', { withTimezone: true, mode: 'date' }),
    /** When the text was first queued. */
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Migration 0005: SHA-256 of the normalised text (lib/reviews/text-hash.ts); one item per hash. */
    textHash: text('text_hash'),
    seenCount: integer('seen_count').notNull().default(1),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Endpoints that saw the text: `text`, `batch`. */
    sources: text('sources').array().notNull().default(sql`'{}'`),
    /** Migrations 0013 and 0015: lower is worse (lib/reviews/priority.ts); the queue is read by (priority, created_at, id). */
    priority: integer('priority').notNull().default(2_000_000),
    /**
     * Migrations 0013 and 0015: the claimant's principal id (`key:<id>`, `session:<id>`, `browser:<hash>`,
     * `anonymous`) and since when; stale after ten minutes.
     */
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    /** Migration 0015: the name the claim is shown with (the moderator's typed name, or the key). */
    claimLabel: text('claim_label'),
  },
  (t) => [
    // `backlog` (migration 0012): over a client's quota, kept outside the active queue.
    check('review_items_status_check', sql`${t.status} IN ('pending', 'confirmed', 'overturned', 'expired', 'backlog')`),
    // A unique index, not a constraint (migration 0005); ON CONFLICT (text_hash) infers it.
    uniqueIndex('review_items_text_hash_idx').on(t.textHash),
    // Newest first within a status: the console's queue order. NULLS FIRST is what a plain DESC means
    // in SQL (drizzle-kit would write NULLS LAST); the columns are NOT NULL either way.
    index('review_items_status_created_idx').on(t.status, t.createdAt.desc().nullsFirst(), t.id),
    index('review_items_status_last_seen_idx').on(t.status, t.lastSeenAt.desc().nullsFirst(), t.id),
    index('review_items_status_priority_idx').on(t.status, t.priority, t.createdAt, t.id),
    // Migration 0015: the claims that may hold, read every few seconds by each open console.
    index('review_items_claimed_idx').on(t.claimedAt).where(sql`${t.claimedBy} IS NOT NULL`),
  ],
);

/** Append-only audit log of review decisions (a trigger refuses UPDATE and DELETE). */
export const reviewDecisions = pgTable(
  'review_decisions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    reviewId: uuid('review_id').notNull(),
    /** The verdict the row is about; for undone and reopened rows the verdict taken back (`undo` on rows before migration 0007). */
    decision: text('decision').$type<'confirm' | 'overturn' | 'undo'>().notNull(),
    /** Migration 0007: what happened (decided, bulk_decided, undone, reopened). */
    action: text('action').$type<'decided' | 'bulk_decided' | 'undone' | 'reopened'>().notNull(),
    /** Migration 0007: the reason code chosen from REVIEW_REASON_CODES ('' when none was given). */
    reasonCode: text('reason_code').notNull().default(''),
    moderator: text('moderator').notNull(),
    note: text('note').notNull().default(''),
    /** Idempotency key from the browser's offline queue: a replayed decision is stored once. */
    clientDecisionId: text('client_decision_id').unique('review_decisions_client_decision_id_key'),
    summary: text('summary').notNull(),
    primaryIssue: text('primary_issue').notNull(),
    severity: text('severity').notNull(),
    score: real('score').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // Migration 0005 widened it to `undo` (replaced by name).
    check('review_decisions_decision_check', sql`${t.decision} IN ('confirm', 'overturn', 'undo')`),
    index('review_decisions_created_idx').on(t.createdAt.desc().nullsFirst(), t.id),
    check('review_decisions_action_check', sql`${t.action} IN ('decided', 'bulk_decided', 'undone', 'reopened')`),
    index('review_decisions_moderator_idx').on(t.moderator, t.createdAt.desc().nullsFirst(), t.id),
    // Migration 0008: one item's history.
    index('review_decisions_review_id_idx').on(t.reviewId, t.createdAt.desc().nullsFirst(), t.id),
  ],
);

/** Flagged texts answered but not queued (migration 0007), per hour, reason and client (`key:<id>` or `anonymous`). */
export const reviewNotQueued = pgTable(
  'review_not_queued',
  {
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    reason: text('reason').$type<'quota' | 'evicted'>().notNull(),
    client: text('client').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'review_not_queued_pkey', columns: [t.hour, t.reason, t.client] }),
    check('review_not_queued_reason_check', sql`${t.reason} IN ('quota', 'evicted')`),
  ],
);

/**
 * Threshold changes (migration 0010, docs/decisions/172): append-only, one row per version;
 * `thresholds` is every override in force from that version on (no row: the shipped thresholds).
 */
export const policyVersions = pgTable(
  'policy_versions',
  {
    version: integer('version').primaryKey(),
    category: text('category').notNull(),
    /** The category's override before and after; NULL = its shipped threshold. */
    oldThreshold: real('old_threshold'),
    newThreshold: real('new_threshold'),
    thresholds: jsonb('thresholds').$type<Record<string, number>>().notNull().default({}),
    changedBy: text('changed_by').notNull(),
    reason: text('reason').notNull(),
    /** The version this row reverts. */
    reverts: integer('reverts'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('policy_versions_version_check', sql`${t.version} > 0`),
    check(
      'policy_versions_category_check',
      sql`${t.category} IN ('sexism', 'overall', 'insult', 'threat', 'identity_attack', 'profanity')`,
    ),
    check('policy_versions_new_threshold_check', sql`${t.newThreshold} IS NULL OR (${t.newThreshold} > 0 AND ${t.newThreshold} < 1)`),
  ],
);
export type PolicyVersionRow = typeof policyVersions.$inferSelect;

export type ReviewItemRow = typeof reviewItems.$inferSelect;
export type ReviewDecisionRow = typeof reviewDecisions.$inferSelect;

/**
 * Rate-limit counters shared by the instances on one PostgreSQL/Neon database (migration 0003).
 * rate-limiter-flexible's RateLimiterPostgres reads and writes it with its own SQL
 * (lib/db/rate-limit-store.ts); it is declared here so this file describes the whole database.
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  /** Epoch milliseconds; NULL for a counter that never expires. */
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * Browser sessions (migration 0006, lib/db/session-store.ts): the SHA-256 of the cookie's random
 * token, the key the session was opened with (keyId) and its expiry.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    tokenHash: text('token_hash').notNull().unique('sessions_token_hash_key'),
    keyId: text('key_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_key_id_idx').on(t.keyId, t.createdAt.desc().nullsFirst()), index('sessions_expires_at_idx').on(t.expiresAt)],
);

export type SessionRow = typeof sessions.$inferSelect;

/** Bulk moderation jobs (migration 0009, lib/jobs/job-store.ts, docs/decisions/165-bulk-moderation-jobs.md). */
export const moderationJobs = pgTable(
  'moderation_jobs',
  {
    id: uuid('id').primaryKey(),
    /** `key:<key id>`, or `anonymous` on a server without API_KEYS. */
    owner: text('owner').notNull(),
    state: text('state').$type<'receiving' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'>().notNull().default('receiving'),
    format: text('format').$type<'jsonl' | 'csv'>().notNull(),
    /** CSV: the header row, kept in the results. */
    columns: jsonb('columns').$type<string[]>(),
    textColumn: text('text_column'),
    explain: boolean('explain').notNull().default(false),
    /** Migration 0015: whether its flagged rows are recorded for review (a job may opt out). */
    review: boolean('review').notNull().default(true),
    callbackUrl: text('callback_url'),
    callbackState: text('callback_state').$type<'none' | 'pending' | 'delivered' | 'failed'>().notNull().default('none'),
    callbackAttempts: integer('callback_attempts').notNull().default(0),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('moderation_jobs_state_check', sql`${t.state} IN ('receiving', 'queued', 'running', 'succeeded', 'failed', 'cancelled')`),
    check('moderation_jobs_format_check', sql`${t.format} IN ('jsonl', 'csv')`),
    check('moderation_jobs_callback_state_check', sql`${t.callbackState} IN ('none', 'pending', 'delivered', 'failed')`),
    index('moderation_jobs_owner_idx').on(t.owner, t.createdAt.desc().nullsFirst()),
    index('moderation_jobs_state_idx').on(t.state),
  ],
);

/** One input line of a job: the text (null when the line was refused), the CSV row, and the result once written. */
export const moderationJobLines = pgTable(
  'moderation_job_lines',
  {
    jobId: uuid('job_id').notNull(),
    line: integer('line').notNull(),
    input: text('input'),
    row: jsonb('row').$type<string[]>(),
    result: json('result'),
  },
  (t) => [
    // No foreign key: checking one per line halved the speed of an upload; the code that deletes a
    // job deletes its lines (migration 0014).
    primaryKey({ name: 'moderation_job_lines_pkey', columns: [t.jobId, t.line] }),
  ],
);

/** A run of consecutive lines that one instance claims and scores at a time. */
export const moderationJobChunks = pgTable(
  'moderation_job_chunks',
  {
    jobId: uuid('job_id').notNull(),
    chunk: integer('chunk').notNull(),
    firstLine: integer('first_line').notNull(),
    lastLine: integer('last_line').notNull(),
    state: text('state').$type<'pending' | 'running' | 'done' | 'cancelled'>().notNull().default('pending'),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'moderation_job_chunks_pkey', columns: [t.jobId, t.chunk] }),
    foreignKey({ name: 'moderation_job_chunks_job_id_fkey', columns: [t.jobId], foreignColumns: [moderationJobs.id] }).onDelete('cascade'),
    check('moderation_job_chunks_state_check', sql`${t.state} IN ('pending', 'running', 'done', 'cancelled')`),
    index('moderation_job_chunks_state_idx').on(t.state, t.leaseUntil),
  ],
);

export type ModerationJobRow = typeof moderationJobs.$inferSelect;

/** Migration 0015: where a review item was seen in a bulk job (the first line), one row per item and job. */
export const reviewItemJobs = pgTable(
  'review_item_jobs',
  {
    reviewId: uuid('review_id').notNull(),
    jobId: uuid('job_id').notNull(),
    line: integer('line').notNull(),
  },
  (t) => [
    primaryKey({ name: 'review_item_jobs_pkey', columns: [t.reviewId, t.jobId] }),
    foreignKey({ name: 'review_item_jobs_review_id_fkey', columns: [t.reviewId], foreignColumns: [reviewItems.id] }).onDelete('cascade'),
    foreignKey({ name: 'review_item_jobs_job_id_fkey', columns: [t.jobId], foreignColumns: [moderationJobs.id] }).onDelete('cascade'),
    index('review_item_jobs_job_idx').on(t.jobId, t.reviewId),
  ],
);
