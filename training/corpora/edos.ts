/**
 * EDOS (SemEval-2023 Task 10) loading for training and evaluation (sexism_lasso_v1, the toxicity
 * model's sexism label, `npm run eval:text`): where the corpus lives, how its rows map to labels,
 * and the one corpus-specific rewrite applied before the shared preprocessing. Node-only (reads
 * files).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCsvRecords, requireColumn } from '@/training/ml/csv';
import { preprocess } from '@/lib/moderation/preprocess';
import { sexismModelInput } from '@/lib/moderation/sexism/sexism-model';

export const EDOS_FILE = 'text/edos_labelled_aggregated.csv';

export type Split = 'train' | 'dev' | 'test';

export interface EdosExample {
  id: string;
  text: string;
  /** 1 = sexist. */
  label: 0 | 1;
  split: Split;
}

export function loadEdos(dataDir: string): EdosExample[] {
  const file = resolve(dataDir, EDOS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read EDOS at ${file} (set VIGIL_DATA_DIR or pass --data): ${(err as Error).message}`);
  }
  const { rows } = parseCsvRecords(text);
  return rows.map((r, i) => {
    const lab = requireColumn(r, 'label_sexist');
    const split = requireColumn(r, 'split');
    if (lab !== 'sexist' && lab !== 'not sexist') throw new Error(`EDOS row ${i + 1}: label_sexist "${lab}"`);
    if (split !== 'train' && split !== 'dev' && split !== 'test') throw new Error(`EDOS row ${i + 1}: split "${split}"`);
    return { id: requireColumn(r, 'rewire_id'), text: requireColumn(r, 'text'), label: lab === 'sexist' ? 1 : 0, split };
  });
}

/**
 * EDOS anonymised mentions as "[USER]"; live traffic has real "@handles", which the shared
 * preprocessing turns into "@user". Rewrite the corpus marker so training sees what serving sees.
 * ("[URL]" already equals the preprocessing's URL placeholder once lowercased.)
 */
export function edosToLive(text: string): string {
  return text.replace(/\[USER\]/g, '@user');
}

/** The exact string the model featurises for an EDOS text. */
export function edosModelInput(text: string): string {
  return sexismModelInput(preprocess(edosToLive(text)));
}
