import { describe, expect, it } from 'vitest';
import { evaluateFunctionalSuite } from '@/scripts/eval-text/functional-evaluation';
import type { SuiteCase } from '@/scripts/eval-text/functional-suite';
import type { Verdict } from '@/training/ml/verdicts';

const verdict = (flagged: boolean, extra: Partial<Verdict> = {}): Verdict => ({
  flagged,
  score: flagged ? 0.7 : 0.2,
  summary: flagged ? 'likely_harmful' : 'likely_safe',
  primaryIssue: flagged ? 'insult' : 'none',
  sexismScore: 0,
  sexismFlagged: false,
  toxicity: { overall: 0, insult: 0, threat: 0, identity_attack: 0, profanity: 0 },
  ...extra,
});
const c = (category: string, group: string | null, expected: SuiteCase['expected'], i: number): SuiteCase => ({
  id: `${category}/${i}/${group}`,
  category,
  group,
  frame: '',
  text: `${category} ${group} ${i}`,
  expected,
});

// Two groups: 3 harmful and 4 neutral statements each, plus 2 objects.
const cases: SuiteCase[] = [];
for (const g of ['women', 'roma']) {
  for (let i = 0; i < 3; i++) cases.push(c('dehumanisation', g, 'harmful', i));
  for (let i = 0; i < 4; i++) cases.push(c('identity_neutral', g, 'not_harmful', i));
}
cases.push(c('abuse_object', null, 'not_harmful', 0), c('abuse_object', null, 'not_harmful', 1));
const row = (rows: { key: string; value: number | null }[], key: string) => rows.find((r) => r.key === key)?.value;

describe('evaluateFunctionalSuite', () => {
  it('scores a perfect classifier 1 everywhere', () => {
    const r = evaluateFunctionalSuite(
      cases,
      cases.map((x) => verdict(x.expected === 'harmful')),
    );
    expect(row(r.suite.rows, 'suite.balanced_accuracy')).toBe(1);
    expect(row(r.suite.rows, 'suite.min_category_accuracy')).toBe(1);
    expect(row(r.identity.rows, 'identity.flag_rate')).toBe(0);
    expect(row(r.identity.rows, 'identity.roc_auc.roma')).toBe(1);
  });

  it('gives flag-everything a balanced accuracy of 0.5 and counts the false positives per group', () => {
    const r = evaluateFunctionalSuite(
      cases,
      cases.map(() => verdict(true)),
    );
    expect(row(r.suite.rows, 'suite.balanced_accuracy')).toBe(0.5);
    expect(row(r.suite.rows, 'suite.category.abuse_object')).toBe(0);
    expect(row(r.identity.rows, 'identity.flag_rate.women')).toBe(1);
    expect(r.errorsByCategory.get('identity_neutral')).toEqual({ insult: 8 });
  });

  it('rates groups apart and reads the sexism model alone for the women row', () => {
    const verdicts = cases.map((x, i) =>
      x.category === 'identity_neutral' && x.group === 'roma' && i % 2 === 0
        ? verdict(true)
        : verdict(x.expected === 'harmful', { sexismFlagged: x.group === 'women' && x.category === 'identity_neutral' && i % 4 === 3 }),
    );
    const r = evaluateFunctionalSuite(cases, verdicts);
    expect(row(r.identity.rows, 'identity.flag_rate.women')).toBe(0);
    expect(row(r.identity.rows, 'identity.flag_rate.roma')).toBe(0.5);
    expect(row(r.identity.rows, 'identity.max_group_flag_rate')).toBe(0.5);
    expect(row(r.identity.rows, 'identity.flag_rate')).toBe(0.25);
    expect(row(r.identity.rows, 'sexism.women_statements_flagged')).toBe(0.25);
  });

  it('refuses verdicts that do not match the cases', () => {
    expect(() => evaluateFunctionalSuite(cases, [])).toThrow(/verdicts/);
  });
});
