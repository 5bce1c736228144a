/**
 * Everything sexism_lasso_v1 reads, assembled once: the fitted rows (EDOS train + extra corpora +
 * training templates, with sample weights), EDOS dev (tuning) and test (reported once), and the
 * report-only validation sets (the extra corpora's hash slice, the validation templates).
 */
import { edosModelInput, loadEdos } from '@/training/corpora/edos';
import type { DecisionRow } from '@/training/corpora/decision-corpus';
import { loadExtraCorpora, type ExtraCorpus } from '@/training/corpora/sexism-corpora';
import { sexismModelInput } from '@/lib/moderation/sexism/sexism-model';
import { preprocess } from '@/lib/moderation/preprocess';
import { loadTemplateFile, trainingTemplates, validationTemplates, type TemplateKind } from './templates';
import { fnv1a } from '@/training/ml/hash';

/**
 * Per mille of EDOS train held out of the first stage and of the toxicity encoder's sexism label:
 * the final stack (train.ts) is fitted on it, where both of its inputs are out of sample.
 */
export const EDOS_STACK_PER_MILLE = 250;
const STACK_SALT = 'vigil-edos-stack|';
export function edosStackRow(input: string): boolean {
  return fnv1a(STACK_SALT + input) % 1000 < EDOS_STACK_PER_MILLE;
}

export type Source = 'edos' | ExtraCorpus | 'template';

/**
 * Sentences quoted as known failures of the EDOS-only model (decision 080). They are kept out of the training templates so
 * that their scores in the model card are not fitted values (the frames are generic, so some
 * expansions could otherwise coincide with them).
 */
export const KNOWN_FAILURE_CHECKS: readonly { text: string; expected: 0 | 1 }[] = [
  { text: 'Women deserve equal pay.', expected: 0 },
  { text: 'My sister is a female pilot', expected: 0 },
  { text: "Girls can't do math, their brains are too small.", expected: 1 },
];

export interface Rows {
  inputs: string[];
  labels: Uint8Array;
  sources: Source[];
}

export interface SexismDataset {
  train: Rows;
  /** The EDOS train slice `edosStackRow` picks: the final stack's training rows, nothing else's. */
  stack: Rows;
  dev: Rows;
  test: Rows;
  /** 10% hash slice of Call me sexist but and ToxiGen (women), never fitted or tuned on. */
  extraVal: Rows;
  /** Validation template sentences (frames that training never sees), by kind. */
  templateVal: Rows & { kinds: TemplateKind[] };
  counts: Record<string, { n: number; sexist: number }>;
}

function rows(xs: { input: string; label: 0 | 1; source: Source }[]): Rows {
  return { inputs: xs.map((x) => x.input), labels: Uint8Array.from(xs.map((x) => x.label)), sources: xs.map((x) => x.source) };
}

/** `decisions`: moderators' decisions exported from the console (training/corpora/decision-corpus.ts), an extra corpus. */
export function loadSexismDataset(dataDir: string, decisions: readonly DecisionRow[] = []): SexismDataset {
  const edos = loadEdos(dataDir);
  const edosRows = (split: string) =>
    edos.filter((e) => e.split === split).map((e) => ({ input: edosModelInput(e.text), label: e.label, source: 'edos' as Source }));
  const dev = edosRows('dev');
  const test = edosRows('test');
  const heldOut = new Set([...dev, ...test].map((r) => r.input));

  const extra = loadExtraCorpora(dataDir, heldOut, decisions);
  const file = loadTemplateFile();
  const known = new Set(KNOWN_FAILURE_CHECKS.map((k) => sexismModelInput(preprocess(k.text)).replace(/[.!?]+$/, '')));
  const strip = (s: string) => s.replace(/[.!?]+$/, '');
  const tplTrain = trainingTemplates(file)
    .map((t) => ({ input: sexismModelInput(preprocess(t.text)), label: t.label, source: 'template' as Source }))
    .filter((t) => !known.has(strip(t.input)));
  const tplVal = validationTemplates(file);

  const edosTrain = edosRows('train');
  const train = [
    ...edosTrain.filter((r) => !edosStackRow(r.input)),
    ...extra.filter((e) => e.part === 'train').map((e) => ({ input: e.input, label: e.label, source: e.corpus as Source })),
    ...tplTrain,
  ];
  const counts: SexismDataset['counts'] = {};
  for (const r of train) {
    const c = counts[r.source] ?? { n: 0, sexist: 0 };
    counts[r.source] = c;
    c.n++;
    c.sexist += r.label;
  }
  const templateVal = {
    ...rows(tplVal.map((t) => ({ input: sexismModelInput(preprocess(t.text)), label: t.label, source: 'template' as Source }))),
    kinds: tplVal.map((t) => t.kind),
  };
  return {
    train: rows(train),
    stack: rows(edosTrain.filter((r) => edosStackRow(r.input))),
    dev: rows(dev),
    test: rows(test),
    extraVal: rows(extra.filter((e) => e.part === 'val').map((e) => ({ input: e.input, label: e.label, source: e.corpus as Source }))),
    templateVal,
    counts,
  };
}
