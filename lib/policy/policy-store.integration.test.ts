/**
 * Policy versions on PGlite (migration 0010, docs/decisions/172): every change a row, reverts as
 * new rows, stale changes refused, the table append-only; the decided review items it measures.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModerationResponse } from '@/lib/contracts/moderation';
import { migrate } from '@/lib/db/migrate';
import { openDatabase, type Database } from '@/lib/db/open-database';
import { DomainError } from '@/lib/errors/domain-error';
import { loadEnv } from '@/lib/env';
import { createReviewStore } from '@/lib/reviews/review-store';
import { parseDecisionCorpus } from '@/training/corpora/decision-corpus';
import { DECISIONS_CSV_HEADER, decisionsCsvRows } from './decisions-csv';
import { createPolicyStore, type PolicyStore } from './policy-store';

const codeOf = (err: unknown) => (DomainError.is(err) ? err.code : String(err));

function verdict(text: string, insult: number, primary: ModerationResponse['ensemble']['primary_issue']): ModerationResponse {
  return {
    text,
    label: {
      sexism: { score: 0.1, severity: 'low', model_version: 'sexism_lasso_v1', threshold_met: false },
      toxicity: { overall: insult, insult, threat: 0, identity_attack: 0, profanity: 0, model_version: 'toxic_transformer_v1' },
      rules: {
        slur_detected: false,
        threat_detected: false,
        self_harm_flag: false,
        profanity_flag: false,
        caps_abuse: false,
        character_repetition: false,
        model_version: 'rules_v1',
      },
    },
    ensemble: { summary: 'likely_harmful', primary_issue: primary, score: 0.7, severity: 'high' },
    meta: { processing_time_ms: 1, models_used: ['sexism_lasso_v1', 'toxic_transformer_v1', 'rules_v1'] },
  };
}

describe('policy versions on PGlite', () => {
  let database: Database;
  let store: PolicyStore;
  beforeAll(async () => {
    database = await openDatabase({ ...loadEnv({ DATA_DIR: ':memory:' }), DATA_DIR: ':memory:' });
    await migrate(database);
    store = createPolicyStore(database);
  });
  afterAll(() => database.close());

  it('starts at version 0, the shipped thresholds', async () => {
    expect(await store.current()).toEqual({ version: 0, thresholds: {} });
    expect(await store.versions(10)).toEqual([]);
  });

  it('records each change as a version (who, when, old, new, why) and reverts with a new version', async () => {
    const at = new Date('2026-11-26T09:00:00Z');
    const v1 = await store.change(
      { category: 'insult', threshold: 0.7, reason: 'too many overturns', changedBy: 'ana', expectedVersion: 0 },
      at,
    );
    expect(v1).toEqual({
      version: 1,
      category: 'insult',
      old_threshold: null,
      new_threshold: 0.7,
      thresholds: { insult: 0.7 },
      changed_by: 'ana',
      reason: 'too many overturns',
      reverts: null,
      created_at: at.toISOString(),
    });
    const v2 = await store.change({ category: 'insult', threshold: 0.65, reason: 'a bit lower', changedBy: 'bo', expectedVersion: 1 });
    expect(v2).toMatchObject({ version: 2, old_threshold: 0.7, new_threshold: 0.65, thresholds: { insult: 0.65 } });
    const v3 = await store.change({ category: 'sexism', threshold: 0.6, reason: 'sexism too', changedBy: 'bo', expectedVersion: 2 });
    expect(v3.thresholds).toEqual({ insult: 0.65, sexism: 0.6 });

    // Reverting version 1 puts insult back to what it was before version 1: the shipped threshold.
    const v4 = await store.revert(1, { reason: 'back to shipped', changedBy: 'ana', expectedVersion: 3 });
    expect(v4).toMatchObject({
      version: 4,
      category: 'insult',
      old_threshold: 0.65,
      new_threshold: null,
      reverts: 1,
      thresholds: { sexism: 0.6 },
    });
    const v5 = await store.revert(4, { reason: 'undo the revert', changedBy: 'ana', expectedVersion: 4 });
    expect(v5).toMatchObject({ version: 5, new_threshold: 0.65, reverts: 4, thresholds: { insult: 0.65, sexism: 0.6 } });

    expect(await store.current()).toEqual({ version: 5, thresholds: { insult: 0.65, sexism: 0.6 } });
    expect((await store.versions(10)).map((v) => v.version)).toEqual([5, 4, 3, 2, 1]);
    expect((await store.versions(2)).map((v) => v.version)).toEqual([5, 4]);
  });

  it('refuses a change decided on an older version, a change to the value in force, and an unknown version', async () => {
    const stale = store.change({ category: 'threat', threshold: 0.4, reason: 'x', changedBy: 'c', expectedVersion: 3 });
    await expect(stale.catch(codeOf)).resolves.toBe('POLICY_CONFLICT');
    const same = store.change({ category: 'insult', threshold: 0.65, reason: 'x', changedBy: 'c', expectedVersion: 5 });
    await expect(same.catch(codeOf)).resolves.toBe('VALIDATION_ERROR');
    await expect(store.revert(99, { reason: 'x', changedBy: 'c', expectedVersion: 5 }).catch(codeOf)).resolves.toBe('NOT_FOUND');
    expect((await store.current()).version).toBe(5);
  });

  it('lets only one of two concurrent changes on the same version through', async () => {
    const tries = await Promise.allSettled([
      store.change({ category: 'threat', threshold: 0.4, reason: 'a', changedBy: 'a', expectedVersion: 5 }),
      store.change({ category: 'threat', threshold: 0.45, reason: 'b', changedBy: 'b', expectedVersion: 5 }),
    ]);
    expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(1);
    expect(codeOf((tries.find((t) => t.status === 'rejected') as PromiseRejectedResult).reason)).toBe('POLICY_CONFLICT');
    expect((await store.current()).version).toBe(6);
  });

  it('keeps the versions append-only', async () => {
    await expect(database.db.execute(sql`UPDATE policy_versions SET reason = 'rewritten' WHERE version = 1`)).rejects.toThrow();
    await expect(database.db.execute(sql`DELETE FROM policy_versions`)).rejects.toThrow();
    expect((await store.versions(1))[0]!.version).toBe(6);
  });

  it('measures and exports only decided items, with the reason code of the decision in force', async () => {
    const reviews = createReviewStore(database);
    await reviews.record([
      verdict('you idiot', 0.9, 'insult'),
      verdict('you silly goose', 0.6, 'insult'),
      verdict('still pending', 0.7, 'insult'),
    ]);
    const { items } = await reviews.list({ status: 'pending', limit: 10, offset: 0 });
    const id = (text: string) => items.find((i) => i.text === text)!.review_id;
    await reviews.decide(id('you idiot'), { decision: 'overturn', moderator: 'ana', reason_code: 'false positive: context' });
    await reviews.undo(id('you idiot'), { moderator: 'ana' }, 120);
    await reviews.decide(id('you idiot'), { decision: 'confirm', moderator: 'ana', reason_code: 'harassment' });
    await reviews.decide(id('you silly goose'), { decision: 'overturn', moderator: 'bo', reason_code: 'false positive: context' });

    const samples = await store.decidedSamples();
    expect(samples.map((s) => [s.decision, s.toxicity.insult]).sort()).toEqual([
      ['confirm', 0.9],
      ['overturn', 0.6],
    ]);
    const chunks: string[] = [];
    for await (const chunk of store.decidedItems(1)) chunks.push(decisionsCsvRows(chunk));
    expect(chunks).toHaveLength(2);
    const rows = parseDecisionCorpus(DECISIONS_CSV_HEADER + chunks.join(''));
    expect(rows).toEqual([
      { text: 'you idiot', labels: { overall: 1, insult: 1 } },
      { text: 'you silly goose', labels: { overall: 0, insult: 0, threat: 0, identity_attack: 0 }, sexist: 0 },
    ]);
    const csv = DECISIONS_CSV_HEADER + chunks.join('');
    expect(csv).toContain(',confirm,insult,harassment,');
  });
});
