import { describe, expect, it } from 'vitest';
import { evaluateFunctionalSuite } from '@/scripts/eval-text/functional-evaluation';
import type { SuiteCase } from '@/scripts/eval-text/functional-suite';
import { evaluateFunctionalSuiteV2 } from '@/scripts/eval-text/functional-v2';
import type { Verdict } from '@/training/ml/verdicts';

const verdict = (flagged: boolean): Verdict => ({
  flagged,
  score: flagged ? 0.7 : 0.2,
  summary: flagged ? 'likely_harmful' : 'likely_safe',
  primaryIssue: flagged ? 'threat' : 'none',
  sexismScore: 0,
  sexismFlagged: false,
  toxicity: { overall: 0, insult: 0, threat: 0, identity_attack: 0, profanity: 0 },
});
const make = (category: string, expected: SuiteCase['expected'], n: number): SuiteCase[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${category}/${i}`, category, group: null, frame: '', text: `${category} ${i}`, expected }));
const row = (rows: { key: string; value: number | null }[], key: string) => rows.find((r) => r.key === key)?.value;

// First file: right on everything. Second file: misses half the implicit threats.
const v1 = [...make('dehumanisation', 'harmful', 4), ...make('identity_neutral', 'not_harmful', 4)];
const v2 = [...make('implicit_threat', 'harmful', 4), ...make('negation_v2', 'not_harmful', 4)];
const v1Verdicts = v1.map((c) => verdict(c.expected === 'harmful'));
const v2Verdicts = v2.map((c, i) => verdict(c.expected === 'harmful' && i % 2 === 0));

describe('evaluateFunctionalSuiteV2', () => {
  const r = evaluateFunctionalSuiteV2({ cases: v1, verdicts: v1Verdicts }, { cases: v2, verdicts: v2Verdicts });

  it('rates the new categories apart, and both files together', () => {
    expect(row(r.section.rows, 'suite_v2.category.implicit_threat')).toBe(0.5);
    expect(row(r.section.rows, 'suite_v2.category.negation_v2')).toBe(1);
    expect(row(r.section.rows, 'suite_v2.balanced_accuracy')).toBe(0.75);
    expect(row(r.section.rows, 'suite_v2.min_category_accuracy')).toBe(0.5);
    // 6 of 8 harmful right, 8 of 8 harmless right.
    expect(row(r.section.rows, 'suite_both.balanced_accuracy')).toBe(0.875);
    expect(row(r.section.rows, 'suite_both.min_category_accuracy')).toBe(0.5);
    expect(r.errorsByCategory.get('implicit_threat')).toEqual({ missed: 2 });
  });

  it("leaves the first file's rows to the first table, unchanged", () => {
    expect(r.section.rows.some((x) => x.key.startsWith('suite.'))).toBe(false);
    const first = evaluateFunctionalSuite(v1, v1Verdicts);
    expect(row(first.suite.rows, 'suite.min_category_accuracy')).toBe(1);
  });

  it('refuses a second-file case under a first-file category id', () => {
    expect(() =>
      evaluateFunctionalSuiteV2(
        { cases: v1, verdicts: v1Verdicts },
        { cases: make('dehumanisation', 'harmful', 1), verdicts: [verdict(true)] },
      ),
    ).toThrow(/also a category of the first/);
  });
});
