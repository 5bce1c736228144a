/**
 * DynaHate dev scored whole. readCorpora() also hands this file to training,
 * so its rows fall into the fixed hash split like any corpus row: rows of the toxicity `test` split
 * were never trained on (the honest number, and the targeted one), `val` rows picked the
 * checkpoint, `train` rows were fitted. The all-rows figures are shown, labelled as such, because
 * they are what a reader comparing with published DynaHate numbers would otherwise compute.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvRecords } from '@/training/ml/csv';
import { preprocess } from '@/lib/moderation/preprocess';
import { dedupeKey, splitOf, type Split } from '@/training/corpora/toxicity-split';
import type { LabelledText } from './datasets';
import { balancedAccuracy } from '@/training/ml/metrics';
import { aucOrNull, type MetricRow, rate, type Section } from './metric-row';
import type { Scorer, Verdict } from '@/training/ml/verdicts';

export const DYNAHATE_FILE = 'text/dynahate_dev.csv';
export const DYNAHATE_TEST_AUC_TARGET = 0.75;

export interface DynahateRow extends LabelledText {
  split: Split;
}

/**
 * Rows with a text and a label of 1 (hate) or 0, merged by `dedupeKey` as prepare.ts merges them and
 * put in the split `splitOf` gives the merged text. A text whose copies disagree on the label is
 * left out: neither label is right for it, and training saw the average.
 */
export function dynahateRows(records: readonly Record<string, string | undefined>[]): DynahateRow[] {
  const byKey = new Map<string, DynahateRow | null>();
  for (const r of records) {
    const text = r.text ?? '';
    if (r.label !== '0' && r.label !== '1') continue;
    const clean = preprocess(text).clean;
    if (clean.length === 0) continue;
    const key = dedupeKey(clean);
    const label = r.label === '1' ? 1 : 0;
    const seen = byKey.get(key);
    if (seen === undefined) byKey.set(key, { text, clean, label, split: splitOf(clean) });
    else if (seen !== null && seen.label !== label) byKey.set(key, null);
  }
  return [...byKey.values()].filter((r): r is DynahateRow => r !== null);
}

export function loadDynahateDev(dataDir: string): DynahateRow[] {
  return dynahateRows(parseCsvRecords(readFileSync(join(dataDir, DYNAHATE_FILE))).rows);
}

function aucRows(key: string, what: string, rows: readonly DynahateRow[], v: readonly Verdict[]): [MetricRow, MetricRow] {
  const labels = rows.map((r) => r.label);
  const pos = labels.filter((y) => y === 1).length;
  return [
    {
      key: `${key}.overall_roc_auc`,
      metric: `DynaHate dev (${what}), toxicity overall ROC-AUC (${pos} hate of ${rows.length})`,
      value: aucOrNull(
        labels,
        v.map((x) => x.toxicity.overall),
      ),
      n: rows.length,
    },
    {
      key: `${key}.ensemble_roc_auc`,
      metric: `DynaHate dev (${what}), ensemble score ROC-AUC`,
      value: aucOrNull(
        labels,
        v.map((x) => x.score),
      ),
      n: rows.length,
    },
  ];
}

export async function dynahateSection(rows: readonly DynahateRow[], scorer: Scorer): Promise<Section> {
  const v = await scorer(rows.map((r) => r.text));
  const test = rows.flatMap((r, i) => (r.split === 'test' ? [i] : []));
  const [testOverall, testEnsemble] = aucRows(
    'dynahate.test',
    'test-split rows',
    test.map((i) => rows[i]!),
    test.map((i) => v[i]!),
  );
  const perSplit = (s: Split) => rows.filter((r) => r.split === s).length;
  return {
    id: 'dynahate',
    title: 'DynaHate dev',
    intro:
      `\`${DYNAHATE_FILE}\`, ${rows.length} rows after merging duplicates as \`prepare.ts\` does (label 1 = hate). ` +
      `The toxicity model trains on this file too: by \`splitOf()\`, ${perSplit('test')} rows are in its test split ` +
      `(never trained on), ${perSplit('val')} in validation (checkpoint choice) and ${perSplit('train')} in train. ` +
      'The test-split rows are the number to quote; the all-rows figures are partly trained on. Not-hate includes ' +
      'non-hateful abuse, so a low AUC partly reflects insults the service is meant to flag.',
    rows: [
      { ...testOverall, target: { op: '>=', value: DYNAHATE_TEST_AUC_TARGET }, headline: true },
      testEnsemble,
      ...aucRows('dynahate.all', 'all rows, partly trained on', rows, v),
    ],
  };
}

/** The bar for the API's verdict on DynaHate's never-trained rows. */
export const DYNAHATE_TEST_BALANCED_ACCURACY_TARGET = 0.68;

/**
 * DynaHate dev's test-split rows (never trained on) as the API answers them: a row is called hate when
 * the verdict is flagged (`summary` other than `likely_safe`). Not-hate includes non-hateful abuse the
 * service is meant to flag, so the harmless rows' flag rate is partly right; the balanced accuracy is
 * the number compared across models.
 */
export async function dynahateVerdictSection(rows: readonly DynahateRow[], scorer: Scorer): Promise<Section> {
  const test = rows.filter((r) => r.split === 'test');
  const v = await scorer(test.map((r) => r.text));
  const labels = test.map((r) => r.label);
  const flagged = v.map((x) => x.flagged);
  const of = (y: number) => rate(flagged.filter((_, i) => labels[i] === y));
  return {
    id: 'verdicts_dynahate',
    title: 'DynaHate dev test-split rows, as the API answers',
    intro: `\`${DYNAHATE_FILE}\`'s ${test.length} rows in the toxicity test split (never trained on); flagged = summary not \`likely_safe\`.`,
    rows: [
      {
        key: 'verdicts.dynahate.test.balanced_accuracy',
        metric: 'DynaHate test-split rows, balanced accuracy of the verdict',
        value: balancedAccuracy(labels, flagged.map(Number)),
        target: { op: '>=', value: DYNAHATE_TEST_BALANCED_ACCURACY_TARGET },
        n: test.length,
      },
      {
        key: 'verdicts.dynahate.test.hate_flagged',
        metric: 'hate rows flagged',
        value: of(1),
        percent: true,
        n: labels.filter((y) => y === 1).length,
      },
      {
        key: 'verdicts.dynahate.test.not_hate_flagged',
        metric: 'not-hate rows flagged',
        value: of(0),
        percent: true,
        n: labels.filter((y) => y === 0).length,
      },
    ],
  };
}
