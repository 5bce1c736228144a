/**
 * /api/v1/policy against the production build (docs/decisions/172): measured on decided review
 * items, a threshold change applied by the ensemble at once on the instance that made it (the
 * verdicts answered before and after), versions, revert, the impact count, the labelled CSV, and
 * the scopes (`review` reads, `admin` changes). The change reaching a second instance is in
 * postgres.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '@/lib/contracts/api-v1';
import { moderationResponseSchema } from '@/lib/contracts/moderation';
import { impactEnvelopeSchema, policyEnvelopeSchema, versionEnvelopeSchema, versionsEnvelopeSchema } from '@/lib/contracts/policy';
import { decisionEnvelopeSchema, reviewListEnvelopeSchema } from '@/lib/contracts/reviews';
import { parseDecisionCorpus } from '@/training/corpora/decision-corpus';
import { postJson, startServer, type RunningServer } from '../../scripts/lib/server';

// Under 0.99 (the highest threshold a policy may set) on every head, so raising one category unflags it.
const INSULT = 'Stop acting like a clown.';
const MILD = 'That is a really dumb idea, honestly.';
const ADMIN = 'policy-admin-key-0123456789';
const REVIEWER = 'policy-review-key-0123456789';

const dir = mkdtempSync(path.join(tmpdir(), 'vigil-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the policy view and versioned thresholds', () => {
  let server: RunningServer;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const get = async (p: string, key = REVIEWER) => fetch(`${server.url}${p}`, { headers: as(key) });
  const moderate = async (text: string) =>
    moderationResponseSchema.parse(await (await postJson(`${server.url}/v1/moderate/text`, { text, explain: true })).json());

  beforeAll(async () => {
    server = await startServer({
      DATA_DIR: dir,
      RATE_LIMIT_PER_MINUTE: '0',
      FACE_WARM_ON_START: 'false',
      API_KEYS: `${ADMIN}:admin+review,${REVIEWER}:review+moderate`,
    });
  });
  afterAll(async () => server?.stop());

  it('measures the shipped thresholds (version 0) on the decided items', async () => {
    for (const text of [INSULT, MILD]) expect((await moderate(text)).ensemble.summary).not.toBe('likely_safe');
    let items: { review_id: string; text: string | null }[] = [];
    for (let i = 0; i < 60 && items.length < 2; i++) {
      const body = reviewListEnvelopeSchema.parse(await (await get('/api/v1/reviews?status=pending')).json());
      if (body.success) items = body.data.items;
      if (items.length < 2) await new Promise((r) => setTimeout(r, 250));
    }
    const id = (text: string) => items.find((i) => i.text === text)!.review_id;
    const decide = async (text: string, decision: string, reason_code: string) =>
      decisionEnvelopeSchema.parse(
        await (await postJson(`${server.url}/api/v1/reviews/${id(text)}/decision`, { decision, reason_code }, as(REVIEWER))).json(),
      );
    expect((await decide(INSULT, 'confirm', 'harassment')).success).toBe(true);
    expect((await decide(MILD, 'overturn', 'false positive: context')).success).toBe(true);

    const policy = policyEnvelopeSchema.parse(await (await get('/api/v1/policy')).json());
    if (!policy.success) throw new Error(policy.error.message);
    expect(policy.data).toMatchObject({ version: 0, refresh_seconds: 5, decided: { confirmed: 1, overturned: 1 } });
    expect(policy.data.categories.map((c) => c.category)).toEqual([
      'sexism',
      'overall',
      'insult',
      'threat',
      'identity_attack',
      'profanity',
    ]);
    for (const c of policy.data.categories) {
      expect(c.overridden).toBe(false);
      expect(c.threshold).toBe(c.shipped);
      expect(c.curve).toHaveLength(19);
    }
  });

  it('counts what a change would do, saves it as version 1 (admin only), and this instance applies it at once', async () => {
    const before = await moderate(INSULT);
    const decision = before.explanations!.decision!;
    expect(['insult', 'toxicity', 'identity_attack']).toContain(decision.issue);
    const category = decision.issue === 'toxicity' ? 'overall' : (decision.issue as 'insult' | 'identity_attack');
    const raised = 0.99;

    const impact = impactEnvelopeSchema.parse(await (await get(`/api/v1/policy/impact?category=${category}&threshold=${raised}`)).json());
    if (!impact.success) throw new Error(impact.error.message);
    expect(impact.data).toMatchObject({ category, threshold: raised, decided: 2 });
    const bad = await get(`/api/v1/policy/impact?category=bogus&threshold=2`);
    expect(bad.status).toBe(400);

    const body = { category, threshold: raised, reason: 'contract test', expected_version: 0 };
    const refused = await postJson(`${server.url}/api/v1/policy/versions`, body, as(REVIEWER));
    expect(refused.status).toBe(403);
    expect(errorEnvelopeSchema.parse(await refused.json()).error.code).toBe('INSUFFICIENT_SCOPE');

    const saved = versionEnvelopeSchema.parse(await (await postJson(`${server.url}/api/v1/policy/versions`, body, as(ADMIN))).json());
    if (!saved.success) throw new Error(saved.error.message);
    expect(saved.data).toMatchObject({ version: 1, category, old_threshold: null, new_threshold: raised, reason: 'contract test' });
    expect(saved.data.changed_by).toMatch(/^key:/);

    // No wait: the instance that saved the version applies it to the next moderation.
    // The raised category no longer decides at its old score: either the score falls or another
    // category that also flags the text (overall and insult often both do) gives the verdict.
    const after = await moderate(INSULT);
    const moved = after.explanations!.decision!.issue !== decision.issue || after.ensemble.score < before.ensemble.score;
    expect(moved, JSON.stringify({ before: before.explanations!.decision, after: after.explanations!.decision })).toBe(true);

    const stale = await postJson(`${server.url}/api/v1/policy/versions`, { ...body, threshold: 0.9 }, as(ADMIN));
    expect(stale.status).toBe(409);
    expect(errorEnvelopeSchema.parse(await stale.json()).error.code).toBe('POLICY_CONFLICT');
  });

  it('lists the versions and reverts one as a new version; the shipped verdict is back', async () => {
    const reverted = versionEnvelopeSchema.parse(
      await (await postJson(`${server.url}/api/v1/policy/versions/1/revert`, { reason: 'back', expected_version: 1 }, as(ADMIN))).json(),
    );
    if (!reverted.success) throw new Error(reverted.error.message);
    expect(reverted.data).toMatchObject({ version: 2, new_threshold: null, reverts: 1, thresholds: {} });
    const versions = versionsEnvelopeSchema.parse(await (await get('/api/v1/policy/versions')).json());
    if (!versions.success) throw new Error(versions.error.message);
    expect(versions.data.versions.map((v) => v.version)).toEqual([2, 1]);
    const policy = policyEnvelopeSchema.parse(await (await get('/api/v1/policy')).json());
    if (!policy.success) throw new Error(policy.error.message);
    expect(policy.data.version).toBe(2);
    expect(policy.data.categories.every((c) => !c.overridden)).toBe(true);
    expect((await postJson(`${server.url}/api/v1/policy/versions/77/revert`, { reason: 'x', expected_version: 2 }, as(ADMIN))).status).toBe(
      404,
    );
  });

  it('exports the decided items as a corpus the training scripts read', async () => {
    const res = await get('/api/v1/policy/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const rows = parseDecisionCorpus(await res.text());
    expect(rows).toContainEqual({ text: INSULT, labels: expect.objectContaining({ overall: 1 }) });
    expect(rows).toContainEqual({ text: MILD, labels: { overall: 0, insult: 0, threat: 0, identity_attack: 0 }, sexist: 0 });
  });
});
