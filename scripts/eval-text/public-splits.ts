/**
 * Public test splits: the Jigsaw rows of the toxicity test split (per head, against a TF-IDF +
 * logistic-regression baseline fitted in the same run on the Jigsaw rows of the train split), the
 * test split of every other corpus readCorpora() returns, and the EDOS official test split.
 */
import { averagePrecision, binaryReport } from '@/training/ml/metrics';
import { fitTfidfLrBaseline } from '@/training/ml/tfidf-lr-baseline';
import { TOXICITY_HEADS } from '@/lib/moderation/types';
import type { LabelledText, MergedRow, ToxicityData } from './datasets';
import { aucOrNull, mean, rate, type MetricRow, type Section } from './metric-row';
import type { Scorer } from '@/training/ml/verdicts';

/** Targets for the toxicity model on the Jigsaw test rows. */
export const JIGSAW_MEAN_AUC_TARGET = 0.98;
export const BASELINE_MARGIN_TARGET = 0.01;
export const TOXIC_STILL_FLAGGED_TARGET = 0.85;
export const EDOS_MACRO_F1_TARGET = 0.82;

interface HeadResult {
  n: number;
  positives: number;
  auc: number | null;
  ap: number | null;
}

/** ROC-AUC and average precision of each head over the rows that label it. */
export function headResults(rows: readonly MergedRow[], scores: readonly (readonly number[])[]): HeadResult[] {
  return TOXICITY_HEADS.map((_, k) => {
    const labels: number[] = [];
    const s: number[] = [];
    rows.forEach((r, i) => {
      const y = r.heads[k];
      if (y === undefined) return;
      labels.push(y >= 0.5 ? 1 : 0);
      s.push(scores[i]![k]!);
    });
    const positives = labels.filter((y) => y === 1).length;
    const auc = aucOrNull(labels, s);
    return { n: labels.length, positives, auc, ap: positives > 0 ? averagePrecision(labels, s) : null };
  });
}

export async function jigsawSection(data: ToxicityData, scorer: Scorer, log: (s: string) => void): Promise<Section> {
  const test = data.merged.filter((r) => r.split === 'test' && r.jigsaw);
  const train = data.merged.filter((r) => r.split === 'train' && r.jigsaw);
  const verdicts = await scorer(test.map((r) => r.text));
  const model = headResults(
    test,
    verdicts.map((v) => TOXICITY_HEADS.map((h) => v.toxicity[h])),
  );
  const t0 = Date.now();
  const baseline = fitTfidfLrBaseline(
    train.map((r) => r.clean),
    train.map((r) => r.heads),
    { log },
  );
  const base = headResults(test, baseline.score(test.map((r) => r.clean)));
  log(`baseline fitted and scored in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  const rows: MetricRow[] = [];
  TOXICITY_HEADS.forEach((h, k) => {
    const m = model[k]!;
    const b = base[k]!;
    rows.push(
      { key: `jigsaw.${h}.roc_auc`, metric: `${h}: ROC-AUC (${m.positives} positive of ${m.n})`, value: m.auc, n: m.n },
      { key: `jigsaw.${h}.pr_auc`, metric: `${h}: PR-AUC (average precision)`, value: m.ap, n: m.n },
      { key: `jigsaw.${h}.baseline_roc_auc`, metric: `${h}: baseline ROC-AUC`, value: b.auc, n: b.n },
      { key: `jigsaw.${h}.baseline_pr_auc`, metric: `${h}: baseline PR-AUC`, value: b.ap, n: b.n },
      {
        key: `jigsaw.${h}.above_baseline`,
        metric: `${h}: ROC-AUC minus baseline`,
        value: m.auc !== null && b.auc !== null ? m.auc - b.auc : null,
        target: { op: '>', value: 0 },
      },
    );
  });
  const meanModel = mean(model.map((m) => m.auc).filter((x): x is number => x !== null));
  const meanBase = mean(base.map((m) => m.auc).filter((x): x is number => x !== null));
  rows.unshift(
    {
      key: 'jigsaw.mean_roc_auc',
      metric: 'mean ROC-AUC over the 5 heads',
      value: meanModel,
      target: { op: '>=', value: JIGSAW_MEAN_AUC_TARGET },
      n: test.length,
      headline: true,
    },
    {
      key: 'jigsaw.baseline_mean_roc_auc',
      metric: 'baseline (TF-IDF + LR, same run) mean ROC-AUC',
      value: meanBase,
      n: train.length,
      headline: true,
    },
    {
      key: 'jigsaw.mean_roc_auc_above_baseline',
      metric: 'mean ROC-AUC minus baseline',
      value: meanModel !== null && meanBase !== null ? meanModel - meanBase : null,
      target: { op: '>=', value: BASELINE_MARGIN_TARGET },
    },
    {
      key: 'jigsaw.mean_pr_auc',
      metric: 'mean PR-AUC over the 5 heads',
      value: mean(model.map((m) => m.ap).filter((x): x is number => x !== null)),
    },
  );
  return {
    id: 'jigsaw',
    title: 'Jigsaw rows of the toxicity test split',
    intro:
      `${test.length} test rows that come from a Jigsaw corpus (\`JIGSAW_CORPORA\`), split by \`splitOf()\` and ` +
      `deduplicated as \`prepare.ts\` does; scores are the served toxicity heads from \`moderate()\`. The baseline ` +
      `is \`training/ml/tfidf-lr-baseline.ts\` fitted in this run on the ${train.length} Jigsaw rows of the train split.`,
    rows,
  };
}

/** Per corpus: ROC-AUC of the toxicity `overall` score and of the ensemble score, F1 at the served decision. */
export async function corporaSection(data: ToxicityData, scorer: Scorer): Promise<Section> {
  const rows: MetricRow[] = [];
  for (const [corpus, texts] of [...data.testByCorpus.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const v = await scorer(texts.map((t) => t.text));
    const labels = texts.map((t) => t.label);
    const pos = labels.filter((y) => y === 1).length;
    const rep = binaryReport(
      labels,
      v.map((x) => (x.flagged ? 1 : 0)),
    );
    rows.push(
      {
        key: `corpus.${corpus}.overall_roc_auc`,
        metric: `${corpus}: toxicity overall ROC-AUC (${pos} harmful of ${texts.length})`,
        value: aucOrNull(
          labels,
          v.map((x) => x.toxicity.overall),
        ),
        n: texts.length,
      },
      {
        key: `corpus.${corpus}.ensemble_roc_auc`,
        metric: `${corpus}: ensemble score ROC-AUC`,
        value: aucOrNull(
          labels,
          v.map((x) => x.score),
        ),
        n: texts.length,
      },
      {
        key: `corpus.${corpus}.f1`,
        metric: `${corpus}: F1 (harmful) of the served decision`,
        value: pos > 0 ? rep.positive.f1 : null,
        n: texts.length,
      },
      {
        key: `corpus.${corpus}.recall`,
        metric: `${corpus}: share of harmful texts flagged`,
        value: pos > 0 ? rep.positive.recall : null,
        percent: true,
        n: pos,
      },
      {
        key: `corpus.${corpus}.false_positive_rate`,
        metric: `${corpus}: share of harmless texts flagged`,
        value: rate(texts.flatMap((t, i) => (t.label === 0 ? [v[i]!.flagged] : []))),
        percent: true,
        n: texts.length - pos,
      },
    );
  }
  // Overall-label positives of the whole test split: what identity debiasing must not give up.
  const toxic = data.merged.filter((r) => r.split === 'test' && r.heads[0] !== undefined && r.heads[0] >= 0.5);
  const tv = await scorer(toxic.map((r) => r.text));
  rows.unshift({
    key: 'toxicity_test.toxic_still_flagged',
    metric: 'toxic test texts (overall label) flagged by the ensemble',
    value: rate(tv.map((x) => x.flagged)),
    target: { op: '>=', value: TOXIC_STILL_FLAGGED_TARGET },
    percent: true,
    n: toxic.length,
    headline: true,
  });
  return {
    id: 'corpora',
    title: 'Test split of each toxicity corpus',
    intro:
      'Every corpus `readCorpora()` returns (the out-of-domain corpus excepted), its rows of the fixed test split on its ' +
      'own labels: harmful when any head the corpus labels is positive. "Served decision" = ensemble `summary` other than ' +
      '`likely_safe`. Corpora with only harmful rows (Toxic Spans) have no AUC.',
    rows,
  };
}

export async function edosSection(edos: readonly LabelledText[], scorer: Scorer): Promise<Section> {
  const v = await scorer(edos.map((e) => e.text));
  const labels = edos.map((e) => e.label);
  const sexism = binaryReport(
    labels,
    v.map((x) => (x.sexismFlagged ? 1 : 0)),
  );
  const ensemble = binaryReport(
    labels,
    v.map((x) => (x.flagged ? 1 : 0)),
  );
  return {
    id: 'edos',
    title: 'EDOS test (official split)',
    intro: `${edos.length} EDOS \`test\` rows (${labels.filter((y) => y === 1).length} sexist); nothing trains or tunes on them.`,
    rows: [
      {
        key: 'edos.sexism_macro_f1',
        metric: 'sexism model macro-F1 at its threshold',
        value: sexism.macroF1,
        target: { op: '>=', value: EDOS_MACRO_F1_TARGET },
        n: edos.length,
        headline: true,
      },
      {
        key: 'edos.sexism_roc_auc',
        metric: 'sexism model ROC-AUC',
        value: aucOrNull(
          labels,
          v.map((x) => x.sexismScore),
        ),
        n: edos.length,
      },
      { key: 'edos.ensemble_macro_f1', metric: 'ensemble macro-F1 (flagged = sexist)', value: ensemble.macroF1, n: edos.length },
      {
        key: 'edos.ensemble_false_positive_rate',
        metric: 'ensemble: share of not-sexist rows flagged (for any issue)',
        value: 1 - ensemble.negative.recall,
        percent: true,
      },
    ],
  };
}
