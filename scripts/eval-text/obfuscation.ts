/**
 * Whole-text obfuscation: of the sampled toxic test texts the ensemble flags in plain form, the
 * share each rewrite (whole-text-variants.ts) still gets flagged.
 */
import { rate, type MetricRow, type Section } from './metric-row';
import type { Scorer } from '@/training/ml/verdicts';
import { VARIANTS, applyVariant } from './whole-text-variants';

export const OBFUSCATION_RETENTION_TARGET = 0.9;
export const OBFUSCATION_SAMPLE = 500;
export const OBFUSCATION_SEED = 20261123;
/**
 * Longer texts are left out: spaced or dotted, a long comment outgrows the model's 128-token window
 * and is truncated, which measures the window rather than the normaliser.
 */
export const OBFUSCATION_MAX_CHARS = 300;

export async function obfuscationSection(sample: readonly string[], scorer: Scorer): Promise<Section> {
  const plain = await scorer(sample);
  const flagged = sample.filter((_, i) => plain[i]!.flagged);
  const rows: MetricRow[] = [];
  for (const variant of VARIANTS) {
    const v = await scorer(flagged.map((t) => applyVariant(variant, t)));
    rows.push({
      key: `obfuscation.${variant}`,
      metric: `${variant}: still flagged`,
      value: rate(v.map((x) => x.flagged)),
      target: { op: '>=', value: OBFUSCATION_RETENTION_TARGET },
      percent: true,
      n: flagged.length,
    });
  }
  const values = rows.map((r) => r.value ?? 0);
  return {
    id: 'obfuscation',
    title: 'Whole-text obfuscation',
    intro:
      `A seeded sample (seed ${OBFUSCATION_SEED}) of ${sample.length} toxic texts (overall label) of the toxicity test split, ` +
      `at most ${OBFUSCATION_MAX_CHARS} characters; the rows are the share of the ${flagged.length} flagged in plain form ` +
      'that stay flagged after each rewrite of the whole text (`scripts/eval-text/whole-text-variants.ts`).',
    rows: [
      {
        key: 'obfuscation.plain_flag_rate',
        metric: 'plain form flagged',
        value: rate(plain.map((x) => x.flagged)),
        percent: true,
        n: sample.length,
      },
      {
        key: 'obfuscation.min_retention',
        metric: 'lowest retention over the variants',
        value: Math.min(...values),
        target: { op: '>=', value: OBFUSCATION_RETENTION_TARGET },
        percent: true,
        headline: true,
      },
      ...rows,
    ],
  };
}
