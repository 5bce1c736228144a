import { describe, expect, it } from 'vitest';
import type { Impact, Policy, PolicyVersion } from '@/lib/contracts/policy';
import { PolicyController, categoryLabel, clampThreshold, describeChange, type PolicyClient, type PolicyState } from './policy-controller';

const measure = (threshold: number) => ({ threshold, flagged: 1, confirmed: 1, precision: 1, relative_recall: 1 });
const policyAt = (version: number, insult = 0.5): Policy => ({
  version,
  refresh_seconds: 5,
  decided: { confirmed: 1, overturned: 0 },
  categories: [{ category: 'insult', threshold: insult, shipped: 0.5, overridden: insult !== 0.5, measured: measure(insult), curve: [] }],
  rules: [],
});
const impactAt = (threshold: number): Impact => ({
  category: 'insult',
  threshold,
  current: 0.5,
  decided: 1,
  changed: threshold > 0.6 ? 1 : 0,
  unflagged_confirmed: threshold > 0.6 ? 1 : 0,
  unflagged_overturned: 0,
  flagged_confirmed: 0,
  flagged_overturned: 0,
  issue_changed: 0,
  measured: measure(threshold),
});
const version = (v: number, old: number | null, next: number | null): PolicyVersion => ({
  version: v,
  category: 'insult',
  old_threshold: old,
  new_threshold: next,
  thresholds: next === null ? {} : { insult: next },
  changed_by: 'ana',
  reason: 'r',
  reverts: null,
  created_at: '2026-11-26T09:00:00.000Z',
});

function fake(over: Partial<PolicyClient> = {}) {
  let server = policyAt(0);
  const sent: unknown[] = [];
  const client: PolicyClient = {
    policy: async () => server,
    versions: async () => ({ versions: [] }),
    impact: async (_c, t) => impactAt(t),
    change: async (body) => {
      sent.push(body);
      server = policyAt(server.version + 1, body.threshold ?? 0.5);
      return version(server.version, null, body.threshold);
    },
    revert: async (v, body) => {
      sent.push({ v, ...body });
      server = policyAt(server.version + 1);
      return version(server.version, 0.7, null);
    },
    ...over,
  };
  const states: PolicyState[] = [];
  const c = new PolicyController(client, (s) => states.push(s));
  return { c, sent, states, setServer: (p: Policy) => (server = p) };
}

describe('category names', () => {
  it('calls the overall toxicity head Toxicity, as every verdict does, and spells the others out', () => {
    expect(categoryLabel('overall')).toBe('Toxicity');
    expect(categoryLabel('identity_attack')).toBe('Identity attack');
    expect(categoryLabel('sexism')).toBe('Sexism');
  });
});

describe('the Policy view without React', () => {
  it('adjusts a category from its threshold in force, shows what the draft would change, saves a version on the version it saw', async () => {
    const { c, sent } = fake();
    await c.load();
    c.select('insult');
    expect(c.state.draft).toBe(0.5);
    expect(c.canSave).toBe(false);
    await c.propose(0.7049);
    expect(c.state.draft).toBe(0.7);
    expect(c.state.impact).toMatchObject({ threshold: 0.7, changed: 1, unflagged_confirmed: 1 });
    expect(c.canSave).toBe(true);
    expect(await c.save('too many overturns', 'ana')).toBe(true);
    expect(sent).toEqual([{ category: 'insult', threshold: 0.7, reason: 'too many overturns', expected_version: 0, moderator: 'ana' }]);
    expect(c.state).toMatchObject({ selected: undefined, saved: { version: 1 }, policy: { version: 1 } });
  });

  it('drops the answer to an older draft when a newer one was asked', async () => {
    const answers: ((i: Impact) => void)[] = [];
    const { c } = fake({ impact: () => new Promise<Impact>((r) => answers.push(r)) });
    await c.load();
    c.select('insult');
    const first = c.propose(0.6);
    const second = c.propose(0.8);
    answers[1]!(impactAt(0.8));
    answers[0]!(impactAt(0.6));
    await Promise.all([first, second]);
    expect(c.state.impact?.threshold).toBe(0.8);
  });

  it('on POLICY_CONFLICT keeps the error and shows the policy as it now is', async () => {
    const conflict = Object.assign(new Error('changed'), { code: 'POLICY_CONFLICT' });
    const t = fake({
      change: async () => {
        throw conflict;
      },
    });
    await t.c.load();
    t.setServer(policyAt(3, 0.65));
    t.c.select('insult');
    await t.c.propose(0.7);
    expect(await t.c.save('x', 'ana')).toBe(false);
    expect(t.c.state.saveError).toBe(conflict);
    expect(t.c.state.policy?.version).toBe(3);
  });

  it('reverts a version and sends the shipped threshold back with toShipped', async () => {
    const { c, sent } = fake();
    await c.load();
    c.select('insult');
    await c.save('back', 'ana', true);
    expect(sent[0]).toMatchObject({ threshold: null });
    expect(await c.revert(1, 'undo', 'bo')).toBe(true);
    expect(sent[1]).toEqual({ v: 1, reason: 'undo', expected_version: 1, moderator: 'bo' });
  });

  it('words a change and keeps drafts on the grid the API accepts', () => {
    expect(describeChange({ old_threshold: null, new_threshold: 0.7 })).toBe('shipped → 0.7');
    expect(clampThreshold(1.4)).toBe(0.99);
    expect(clampThreshold(0)).toBe(0.01);
  });
});
