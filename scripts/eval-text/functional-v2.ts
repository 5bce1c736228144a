/**
 * Rows of the second functional suite file. A table of its own: the first
 * suite's rows and their history stay computed over the first file's 19 categories only, while
 * the new categories get their own balanced and lowest-category accuracy, and a pair of rows over
 * both files answers "how does the whole suite do now".
 */
import { balancedAccuracy } from '@/training/ml/metrics';
import { CATEGORY_ACCURACY_TARGET, categoryRows, SUITE_BALANCED_ACCURACY_TARGET } from './functional-evaluation';
import type { SuiteCase } from './functional-suite';
import type { MetricRow, Section } from './metric-row';
import type { Verdict } from '@/training/ml/verdicts';

export interface ScoredCases {
  cases: readonly SuiteCase[];
  verdicts: readonly Verdict[];
}

function summaryRows(key: string, what: string, s: ScoredCases, catRows: readonly MetricRow[]): MetricRow[] {
  const labels = s.cases.map((c) => (c.expected === 'harmful' ? 1 : 0));
  const preds = s.verdicts.map((v) => (v.flagged ? 1 : 0));
  return [
    {
      key: `${key}.balanced_accuracy`,
      metric: `balanced accuracy (${what})`,
      value: balancedAccuracy(labels, preds),
      target: { op: '>=', value: SUITE_BALANCED_ACCURACY_TARGET },
      n: s.cases.length,
      headline: true,
    },
    {
      key: `${key}.min_category_accuracy`,
      metric: `lowest category accuracy (${what})`,
      value: Math.min(...catRows.map((r) => r.value ?? 0)),
      target: { op: '>=', value: CATEGORY_ACCURACY_TARGET },
      percent: true,
      n: catRows.length,
      headline: true,
    },
  ];
}

export function evaluateFunctionalSuiteV2(
  v1: ScoredCases,
  v2: ScoredCases,
): { section: Section; errorsByCategory: Map<string, Record<string, number>> } {
  const ids = new Set(v1.cases.map((c) => c.category));
  const clash = v2.cases.find((c) => ids.has(c.category));
  // A v2 case under a first-file id would silently change that category's history.
  if (clash) throw new Error(`v2 category ${clash.category} is also a category of the first suite file`);
  const mine = categoryRows(v2.cases, v2.verdicts, 'suite_v2.category');
  const first = categoryRows(v1.cases, v1.verdicts, 'suite.category');
  const both: ScoredCases = { cases: [...v1.cases, ...v2.cases], verdicts: [...v1.verdicts, ...v2.verdicts] };
  const counts = (want: SuiteCase['expected']) => v2.cases.filter((c) => c.expected === want).length;
  return {
    section: {
      id: 'functional_suite_v2',
      title: 'Functional suite v2 (counter-speech, negation, reclaimed words, long texts)',
      intro:
        `${v2.cases.length} further hand-written cases (\`scripts/eval-text/functional-suite-v2.json\`, ` +
        `${mine.rows.length} categories, ${counts('harmful')} expected harmful and ${counts('not_harmful')} not), ` +
        'evaluation only, scored like the suite above: counter-speech, negation, reported speech (neutral, and ' +
        'endorsed), reclaimed words and homonyms of slurs, positive identity statements, threats without threat ' +
        'words, and texts of 2,000 to 9,000 characters of everyday prose with a harmful last sentence (with the same ' +
        'prose alone as the control). The rows of the table above stay over its own categories; "both files" rows ' +
        'pool the two.',
      rows: [
        ...summaryRows('suite_v2', 'v2 categories', v2, mine.rows),
        ...summaryRows('suite_both', 'both suite files', both, [...first.rows, ...mine.rows]),
        ...mine.rows,
      ],
    },
    errorsByCategory: mine.errorsByCategory,
  };
}
