/**
 * The functional suite's rows: accuracy per category and balanced accuracy overall, identity bias
 * (flag rate of the neutral and positive statements per group; per-group ROC-AUC of harmful against
 * harmless sentences of that group) and the sexism model's flag rate on the neutral sentences about
 * women. Pure over the verdicts, so unit tests can feed fakes.
 */
import { balancedAccuracy } from '@/training/ml/metrics';
import type { SuiteCase } from './functional-suite';
import { aucOrNull, rate, type MetricRow, type Section } from './metric-row';
import type { Verdict } from '@/training/ml/verdicts';

export const SUITE_BALANCED_ACCURACY_TARGET = 0.88;
export const CATEGORY_ACCURACY_TARGET = 0.7;
export const IDENTITY_FLAG_RATE_TARGET = 0.02;
export const IDENTITY_GROUP_FLAG_RATE_TARGET = 0.05;
export const WOMEN_SEXISM_FLAG_RATE_TARGET = 0.03;
/** The categories whose sentences state an identity neutrally or positively. */
export const IDENTITY_STATEMENT_CATEGORIES = new Set(['identity_neutral', 'identity_positive']);

export interface FunctionalResult {
  suite: Section;
  identity: Section;
  /** Per category: the primary issues of the wrong verdicts, for the page's diagnosis table. */
  errorsByCategory: Map<string, Record<string, number>>;
}

/**
 * Accuracy per category (in order of first appearance) under `keyPrefix`, and per category the
 * primary issues of the wrong verdicts.
 */
export function categoryRows(
  cases: readonly SuiteCase[],
  verdicts: readonly Verdict[],
  keyPrefix: string,
): { rows: MetricRow[]; errorsByCategory: Map<string, Record<string, number>> } {
  if (cases.length !== verdicts.length) throw new Error(`${cases.length} cases but ${verdicts.length} verdicts`);
  const errorsByCategory = new Map<string, Record<string, number>>();
  const rows = [...new Set(cases.map((c) => c.category))].map((cat): MetricRow => {
    const idx = cases.flatMap((c, i) => (c.category === cat ? [i] : []));
    const correct = idx.map((i) => (cases[i]!.expected === 'harmful') === verdicts[i]!.flagged);
    const errs: Record<string, number> = {};
    idx.forEach((i, k) => {
      if (correct[k]) return;
      const why = verdicts[i]!.flagged ? verdicts[i]!.primaryIssue : 'missed';
      errs[why] = (errs[why] ?? 0) + 1;
    });
    errorsByCategory.set(cat, errs);
    return {
      key: `${keyPrefix}.${cat}`,
      metric: `${cat} (expected ${cases[idx[0]!]!.expected.replace('_', ' ')})`,
      value: rate(correct),
      target: { op: '>=', value: CATEGORY_ACCURACY_TARGET },
      percent: true,
      n: idx.length,
    };
  });
  return { rows, errorsByCategory };
}

export function evaluateFunctionalSuite(cases: readonly SuiteCase[], verdicts: readonly Verdict[]): FunctionalResult {
  if (cases.length !== verdicts.length) throw new Error(`${cases.length} cases but ${verdicts.length} verdicts`);
  const labels = cases.map((c) => (c.expected === 'harmful' ? 1 : 0));
  const preds = verdicts.map((v) => (v.flagged ? 1 : 0));

  const categories = [...new Set(cases.map((c) => c.category))];
  const { rows: catRows, errorsByCategory } = categoryRows(cases, verdicts, 'suite.category');
  const catValues = catRows.map((r) => r.value ?? 0);
  const groups = new Set(cases.flatMap((c) => (c.group ? [c.group] : [])));
  const suite: Section = {
    id: 'functional_suite',
    title: 'Functional suite',
    intro:
      `${cases.length} hand-written cases (\`scripts/eval-text/functional-suite.json\`, ${categories.length} categories, ` +
      `${groups.size} identity groups), evaluation only. A case is right when "flagged" (ensemble summary other than ` +
      '`likely_safe`) matches its expected label. Non-hateful profanity, abuse of objects, negated hate, counter-speech ' +
      'and neutral or positive statements are expected harmless; insults aimed at an individual are expected harmful (decision 075).',
    rows: [
      {
        key: 'suite.balanced_accuracy',
        metric: 'balanced accuracy (all cases)',
        value: balancedAccuracy(labels, preds),
        target: { op: '>=', value: SUITE_BALANCED_ACCURACY_TARGET },
        n: cases.length,
        headline: true,
      },
      {
        key: 'suite.min_category_accuracy',
        metric: 'lowest category accuracy',
        value: Math.min(...catValues),
        target: { op: '>=', value: CATEGORY_ACCURACY_TARGET },
        percent: true,
        headline: true,
      },
      ...catRows,
    ],
  };

  // Identity bias.
  const statements = cases.flatMap((c, i) => (IDENTITY_STATEMENT_CATEGORIES.has(c.category) && c.group ? [i] : []));
  const groupRows: MetricRow[] = [];
  const aucRows: MetricRow[] = [];
  for (const g of groups) {
    const mine = statements.filter((i) => cases[i]!.group === g);
    groupRows.push({
      key: `identity.flag_rate.${g}`,
      metric: `${g}: neutral/positive statements flagged`,
      value: rate(mine.map((i) => verdicts[i]!.flagged)),
      target: { op: '<=', value: IDENTITY_GROUP_FLAG_RATE_TARGET },
      percent: true,
      n: mine.length,
    });
    const all = cases.flatMap((c, i) => (c.group === g ? [i] : []));
    aucRows.push({
      key: `identity.roc_auc.${g}`,
      metric: `${g}: ROC-AUC, harmful vs harmless suite sentences (ensemble score)`,
      value: aucOrNull(
        all.map((i) => labels[i]!),
        all.map((i) => verdicts[i]!.score),
      ),
      n: all.length,
    });
  }
  const women = statements.filter((i) => cases[i]!.group === 'women');
  const aucValues = aucRows.map((r) => r.value).filter((v): v is number => v !== null);
  const identity: Section = {
    id: 'identity_bias',
    title: 'Identity bias (served thresholds)',
    intro:
      `Flag rates on the suite's ${statements.length} neutral and positive identity statements ` +
      `(${[...IDENTITY_STATEMENT_CATEGORIES].join(', ')}), overall and per group; per-group ROC-AUC of the ensemble ` +
      "score on that group's harmful against harmless suite sentences; the sexism model alone on the statements about women.",
    rows: [
      {
        key: 'identity.flag_rate',
        metric: 'neutral/positive statements flagged, all groups',
        value: rate(statements.map((i) => verdicts[i]!.flagged)),
        target: { op: '<=', value: IDENTITY_FLAG_RATE_TARGET },
        percent: true,
        n: statements.length,
        headline: true,
      },
      {
        key: 'identity.max_group_flag_rate',
        metric: 'highest group flag rate',
        value: Math.max(...groupRows.map((r) => r.value ?? 0)),
        target: { op: '<=', value: IDENTITY_GROUP_FLAG_RATE_TARGET },
        percent: true,
        headline: true,
      },
      { key: 'identity.min_group_roc_auc', metric: 'lowest per-group ROC-AUC', value: aucValues.length ? Math.min(...aucValues) : null },
      {
        key: 'sexism.women_statements_flagged',
        metric: 'neutral/positive statements about women flagged by the sexism model',
        value: rate(women.map((i) => verdicts[i]!.sexismFlagged)),
        target: { op: '<=', value: WOMEN_SEXISM_FLAG_RATE_TARGET },
        percent: true,
        n: women.length,
        headline: true,
      },
      ...groupRows,
      ...aucRows,
    ],
  };
  return { suite, identity, errorsByCategory };
}

/** The page's diagnosis table under a suite section: what the wrong verdicts of each category were. */
export function errorsTable(errorsByCategory: ReadonlyMap<string, Record<string, number>>): string[] {
  return [
    '| category | wrong | verdicts of the wrong cases (primary issue, or "missed") |',
    '|---|---:|---|',
    ...[...errorsByCategory.entries()].map(([cat, errs]) => {
      const total = Object.values(errs).reduce((a, b) => a + b, 0);
      const detail = Object.entries(errs)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      return `| ${cat} | ${total} | ${detail} |`;
    }),
  ];
}
