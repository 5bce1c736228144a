/**
 * The review queue against embedded PGlite (in memory): recording, listing and filters,
 * decisions with idempotent replays, the append-only audit log and the retention purge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { loadEnv } from '@/lib/env';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { auditToCsv } from './audit-csv';
import { parseCsv } from './csv';
import { createReviewStore, ReviewNotFoundError, type ReviewStore } from './review-store';

function verdict(text: string, summary: ModerationResponse['ensemble']['summary'], primary: ModerationResponse['ensemble']['primary_issue'], severity: ModerationResponse['ensemble']['severity'], score: number): ModerationResponse {
  return {
    text,
    label: {
      sexism: { score: 0.1, severity: 'low', model_version: 'sexism_lasso_v1', threshold_met: false },
      toxicity: { overall: score, insult: score, threat: 0, identity_attack: 0, profanity: 0, model_version: 'toxic_transformer_v1' },
      rules: { slur_detected: false, threat_detected: false, self_harm_flag: false, profanity_flag: false, caps_abuse: false, character_repetition: false, model_version: 'rules_v1' },
    },
    ensemble: { summary, primary_issue: primary, score, severity },
    meta: { processing_time_ms: 1, models_used: ['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1'] },
  };
}

const DAY = 86_400_000;

describe('review store on PGlite', () => {
  let database: Database;
  let store: ReviewStore;

  beforeAll(async () => {
    database = await openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
    await migrate(database);
    store = createReviewStore(database);
  });
  afterAll(async () => database?.close());

  it('records only verdicts that are not likely_safe, with text, verdict and model versions', async () => {
    const t0 = new Date('2026-01-01T10:00:00Z');
    const n = await store.record(
      [
        verdict('have a nice day', 'likely_safe', 'none', 'low', 0.1),
        verdict('you idiot', 'likely_harmful', 'insult', 'medium', 0.7),
      ],
      t0,
    );
    expect(n).toBe(1);
    await store.record([verdict('i will hurt you', 'highly_harmful', 'threat', 'critical', 0.95)], new Date(t0.getTime() + 1000));
    await store.record([verdict('women cannot lead', 'possibly_harmful', 'sexism', 'medium', 0.55)], new Date(t0.getTime() + 2000));

    const { items, total } = await store.list({ status: 'pending', limit: 50, offset: 0 });
    expect(total).toBe(3);
    expect(items.map((i) => i.text)).toEqual(['women cannot lead', 'i will hurt you', 'you idiot']); // newest first
    const insult = items[2]!;
    expect(insult).toMatchObject({ summary: 'likely_harmful', primary_issue: 'insult', severity: 'medium', status: 'pending' });
    expect(insult.model_versions).toEqual(['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1']);
    expect(insult.verdict).toHaveProperty('ensemble.score', 0.7);
    expect(insult.created_at).toBe(t0.toISOString());
  });

  it('filters by primary issue and severity, and pages', async () => {
    expect((await store.list({ status: 'pending', primary_issue: 'threat', limit: 50, offset: 0 })).items.map((i) => i.text)).toEqual(['i will hurt you']);
    expect((await store.list({ status: 'pending', severity: 'medium', limit: 50, offset: 0 })).total).toBe(2);
    const page = await store.list({ status: 'pending', limit: 1, offset: 1 });
    expect(page.items.map((i) => i.text)).toEqual(['i will hurt you']);
    expect(page.total).toBe(3);
  });

  it('records a decision once per client_decision_id and appends it to the audit log', async () => {
    const [item] = (await store.list({ status: 'pending', primary_issue: 'insult', limit: 1, offset: 0 })).items;
    const when = new Date('2026-01-02T09:00:00Z');
    const first = await store.decide(item!.review_id, { decision: 'overturn', moderator: 'ana', note: 'banter', client_decision_id: 'c-0000001' }, when);
    expect(first.duplicate).toBe(false);
    expect(first.item).toMatchObject({ status: 'overturned', decided_by: 'ana', decided_at: when.toISOString() });
    expect(first.entry).toMatchObject({ decision: 'overturn', moderator: 'ana', note: 'banter', primary_issue: 'insult' });

    const replay = await store.decide(item!.review_id, { decision: 'overturn', moderator: 'ana', note: 'banter', client_decision_id: 'c-0000001' });
    expect(replay.duplicate).toBe(true);
    expect(replay.entry.decision_id).toBe(first.entry.decision_id);

    const { entries, total } = await store.audit(100, 0);
    expect(total).toBe(1);
    expect(entries[0]!.decision_id).toBe(first.entry.decision_id);
    expect((await store.list({ status: 'pending', limit: 50, offset: 0 })).total).toBe(2);
    expect((await store.list({ status: 'overturned', limit: 50, offset: 0 })).total).toBe(1);
  });

  it('answers ReviewNotFoundError for unknown or malformed ids', async () => {
    await expect(store.decide('00000000-0000-4000-8000-000000000000', { decision: 'confirm', moderator: 'm', note: '' })).rejects.toBeInstanceOf(ReviewNotFoundError);
    await expect(store.decide('not-a-uuid', { decision: 'confirm', moderator: 'm', note: '' })).rejects.toBeInstanceOf(ReviewNotFoundError);
  });

  it('keeps the audit log append-only', async () => {
    // drizzle wraps the database error; the trigger's message is its cause.
    const failure = (p: Promise<unknown>) => p.then(() => 'no error', (e: Error) => String((e.cause as Error | undefined)?.message ?? e.message));
    expect(await failure(database.db.execute(sql`UPDATE review_decisions SET note = 'changed'`))).toMatch(/append-only/);
    expect(await failure(database.db.execute(sql`DELETE FROM review_decisions`))).toMatch(/append-only/);
    expect((await store.audit(10, 0)).total).toBe(1);
  });

  it('exports the audit log as CSV, oldest first', async () => {
    const [threat] = (await store.list({ status: 'pending', primary_issue: 'threat', limit: 1, offset: 0 })).items;
    await store.decide(threat!.review_id, { decision: 'confirm', moderator: 'bo, "the mod"', note: '=cmd', client_decision_id: 'c-0000002' }, new Date('2026-01-03T00:00:00Z'));
    const rows = parseCsv(auditToCsv(await store.auditAll()));
    expect(rows[0]).toEqual(['decided_at', 'decision_id', 'review_id', 'decision', 'moderator', 'note', 'summary', 'primary_issue', 'severity', 'score', 'client_decision_id']);
    expect(rows.slice(1).map((r) => [r[3], r[4], r[5]])).toEqual([
      ['overturn', 'ana', 'banter'],
      ['confirm', 'bo, "the mod"', "'=cmd"],
    ]);
  });

  it('purges texts older than the retention and expires what was still pending', async () => {
    await store.record([verdict('fresh insult', 'likely_harmful', 'insult', 'high', 0.75)], new Date('2026-03-01T00:00:00Z'));
    const purged = await store.purgeExpiredTexts(30, new Date('2026-02-15T00:00:00Z'));
    expect(purged).toBe(3); // the three January items; March is not yet recorded as old
    const expired = await store.list({ status: 'expired', limit: 50, offset: 0 });
    expect(expired.items.map((i) => i.text)).toEqual([null]);
    expect(expired.items[0]!.primary_issue).toBe('sexism');
    const decided = await store.list({ status: 'overturned', limit: 50, offset: 0 });
    expect(decided.items[0]!.text).toBeNull();
    expect((await store.list({ status: 'pending', limit: 50, offset: 0 })).items.map((i) => i.text)).toEqual(['fresh insult']);
    expect((await store.audit(10, 0)).total).toBe(2); // decisions outlive the texts
    expect(await store.purgeExpiredTexts(30, new Date(Date.parse('2026-03-01T00:00:00Z') + 29 * DAY))).toBe(0);
    expect(await store.purgeExpiredTexts(30, new Date(Date.parse('2026-03-01T00:00:00Z') + 31 * DAY))).toBe(1);
  });
});

describe('review store and hostile texts', () => {
  it('records a text holding NUL characters (PostgreSQL text cannot) with U+FFFD in their place', async () => {
    const database = await openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
    try {
      await migrate(database);
      const store = createReviewStore(database);
      expect(await store.record([verdict('kill\u0000you', 'highly_harmful', 'threat', 'critical', 0.95)])).toBe(1);
      expect((await store.list({ status: 'pending', limit: 10, offset: 0 })).items.map((i) => i.text)).toEqual(['kill\ufffdyou']);
    } finally {
      await database.close();
    }
  });
});
