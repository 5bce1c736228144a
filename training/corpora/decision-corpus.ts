/**
 * Moderators' decisions as an extra training corpus: the CSV of GET /api/v1/policy/export
 * (lib/policy/decisions-csv.ts writes it; docs/api.md describes it). Each row is a text with a
 * label per toxicity head and for sexism: `1`, `0`, or empty for unknown (masked in the loss).
 * `npm run train:toxicity` and `npm run train:sexism` read such files when given
 * `--decisions <file.csv>[,<file.csv>…]` or `VIGIL_DECISION_CORPORA` (docs/architecture.md).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCsvRecords, requireColumn } from '@/training/ml/csv';
import { TOXICITY_HEADS } from '@/lib/moderation/types';
import type { HeadLabels } from './head-labels';

export const DECISION_CORPUS = 'review_decisions';

export interface DecisionRow {
  text: string;
  /** The toxicity heads the decision labels. */
  labels: HeadLabels;
  /** The sexism label, when the decision gives one. */
  sexist?: 0 | 1;
}

/** `--decisions a.csv,b.csv` (or `--decisions=…`) beats VIGIL_DECISION_CORPORA; none: no files. */
export function decisionCorpusFiles(
  argv: readonly string[] = process.argv.slice(2),
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const k = argv.indexOf('--decisions');
  let list: string | undefined;
  if (k >= 0) {
    list = argv[k + 1];
    if (list === undefined || list.startsWith('--')) throw new Error('--decisions needs a CSV file (or several, comma-separated)');
  } else {
    list = argv.find((a) => a.startsWith('--decisions='))?.slice('--decisions='.length) ?? env.VIGIL_DECISION_CORPORA;
  }
  return (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => resolve(s));
}

function label(value: string, column: string, line: number): 0 | 1 | undefined {
  if (value === '') return undefined;
  if (value === '0' || value === '1') return Number(value) as 0 | 1;
  throw new Error(`decision corpus row ${line}: ${column} must be 0, 1 or empty, not "${value.slice(0, 20)}"`);
}

/**
 * The export guards cells a spreadsheet would run as a formula with a leading `'`
 * (lib/csv/write-csv.ts); the text the model reads is the one moderated.
 */
const unguard = (text: string) => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

/** The rows of one exported file; a row without any label is skipped. */
export function parseDecisionCorpus(csv: string | Buffer): DecisionRow[] {
  const out: DecisionRow[] = [];
  parseCsvRecords(csv).rows.forEach((r, i) => {
    const text = unguard(requireColumn(r, 'text'));
    if (text.trim().length === 0) return;
    const labels: HeadLabels = {};
    for (const head of TOXICITY_HEADS) {
      const v = label(requireColumn(r, head), head, i + 2);
      if (v !== undefined) labels[head] = v;
    }
    const sexist = label(requireColumn(r, 'sexist'), 'sexist', i + 2);
    if (Object.keys(labels).length === 0 && sexist === undefined) return;
    out.push({ text, labels, ...(sexist === undefined ? {} : { sexist }) });
  });
  return out;
}

export function readDecisionCorpora(files: readonly string[]): DecisionRow[] {
  return files.flatMap((file) => {
    let csv: Buffer;
    try {
      csv = readFileSync(file);
    } catch (err) {
      throw new Error(`cannot read the decision corpus ${file}: ${(err as Error).message}`);
    }
    return parseDecisionCorpus(csv);
  });
}
