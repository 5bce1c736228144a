/** Stormfront (hate / noHate), a whole corpus no model trains or tunes on: reported apart. */
import type { LabelledText } from './datasets';
import { aucOrNull, rate, type Section } from './metric-row';
import type { Scorer } from '@/training/ml/verdicts';

export async function outOfDomainSection(texts: readonly LabelledText[], scorer: Scorer, inReadCorpora: boolean): Promise<Section> {
  const v = await scorer(texts.map((t) => t.text));
  const labels = texts.map((t) => t.label);
  const hate = labels.filter((y) => y === 1).length;
  const warning = inReadCorpora
    ? ' **Warning:** `readCorpora()` in `training/corpora/toxicity-corpora.ts` still lists this corpus, so the served ' +
      'toxicity model may have been trained on it and these rows are not out of domain for it.'
    : '';
  return {
    id: 'out_of_domain',
    title: 'Out of domain: Stormfront',
    intro:
      `\`stormfront_hate.csv\` (de Gibert et al. 2018), ${texts.length} sentences labelled hate (${hate}) or noHate. ` +
      `No model trains or tunes on it (it is held out of every training and tuning step); it measures how the models carry to unseen forum text.${warning}`,
    rows: [
      {
        key: 'ood.stormfront.overall_roc_auc',
        metric: 'toxicity overall ROC-AUC (hate vs noHate)',
        value: aucOrNull(
          labels,
          v.map((x) => x.toxicity.overall),
        ),
        n: texts.length,
        headline: true,
      },
      {
        key: 'ood.stormfront.identity_attack_roc_auc',
        metric: 'toxicity identity_attack ROC-AUC',
        value: aucOrNull(
          labels,
          v.map((x) => x.toxicity.identity_attack),
        ),
        n: texts.length,
      },
      {
        key: 'ood.stormfront.ensemble_roc_auc',
        metric: 'ensemble score ROC-AUC',
        value: aucOrNull(
          labels,
          v.map((x) => x.score),
        ),
        n: texts.length,
      },
      {
        key: 'ood.stormfront.flag_rate_hate',
        metric: 'ensemble flag rate on hate',
        value: rate(v.filter((_, i) => labels[i] === 1).map((x) => x.flagged)),
        percent: true,
        n: hate,
      },
      {
        key: 'ood.stormfront.flag_rate_nohate',
        metric: 'ensemble flag rate on noHate',
        value: rate(v.filter((_, i) => labels[i] === 0).map((x) => x.flagged)),
        percent: true,
        n: texts.length - hate,
      },
    ],
  };
}
