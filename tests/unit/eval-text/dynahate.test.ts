import { describe, expect, it } from 'vitest';
import { preprocess } from '@/lib/moderation/preprocess';
import { dynahateRows, dynahateSection } from '@/scripts/eval-text/dynahate';
import type { Verdict } from '@/training/ml/verdicts';
import { splitOf } from '@/training/corpora/toxicity-split';

/** A word per number, in letters: the split key strips digits, so "row 1" and "row 2" would share a split. */
const word = (i: number) => [...i.toString(26)].map((c) => String.fromCharCode(97 + Number.parseInt(c, 26))).join('');

/** Texts whose training split is known, found by the same hash training uses. */
function textsIn(split: 'test' | 'train', n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    if (i > 10_000) throw new Error(`no ${split} texts found`);
    const t = `a sample sentence ${word(i)} about the weather`;
    if (splitOf(preprocess(t).clean) === split) out.push(t);
  }
  return out;
}

describe('dynahateRows', () => {
  it('keeps labelled rows, merges duplicates, drops a text whose copies disagree, and splits like training', () => {
    const [a, b, c] = textsIn('test', 3);
    const [d] = textsIn('train', 1);
    const rows = dynahateRows([
      { text: a, label: '1' },
      { text: `${a!.toUpperCase()}!!`, label: '1' },
      { text: b, label: '0' },
      { text: b, label: '1' },
      { text: c, label: '0' },
      { text: d, label: '1' },
      { text: 'no label here', label: '' },
      { text: '   ', label: '1' },
    ]);
    expect(rows.map((r) => [r.text, r.label, r.split])).toEqual([
      [a, 1, 'test'],
      [c, 0, 'test'],
      [d, 1, 'train'],
    ]);
  });
});

describe('dynahateSection', () => {
  const test = textsIn('test', 4);
  const train = textsIn('train', 4);
  const rows = dynahateRows([...test, ...train].map((text, i) => ({ text, label: String(i % 2) })));
  const verdict = (s: number): Verdict => ({
    flagged: s >= 0.5,
    score: s,
    summary: s >= 0.5 ? 'likely_harmful' : 'likely_safe',
    primaryIssue: 'none',
    sexismScore: 0,
    sexismFlagged: false,
    toxicity: { overall: s, insult: 0, threat: 0, identity_attack: 0, profanity: 0 },
  });

  it('reads the targeted row off the test-split rows only', async () => {
    // Right on the test rows, backwards on the train rows: only the all-rows AUC may suffer.
    const scorer = async (texts: readonly string[]) =>
      texts.map((t) => {
        const r = rows.find((x) => x.text === t)!;
        const hate = (r.label === 1) === (r.split === 'test');
        return verdict(hate ? 0.9 : 0.1);
      });
    const s = await dynahateSection(rows, scorer);
    const v = (key: string) => s.rows.find((r) => r.key === key);
    expect(v('dynahate.test.overall_roc_auc')?.value).toBe(1);
    expect(v('dynahate.test.overall_roc_auc')?.n).toBe(4);
    expect(v('dynahate.test.overall_roc_auc')?.target).toEqual({ op: '>=', value: 0.75 });
    expect(v('dynahate.test.ensemble_roc_auc')?.value).toBe(1);
    expect(v('dynahate.all.overall_roc_auc')?.value).toBe(0.5);
    expect(v('dynahate.all.overall_roc_auc')?.n).toBe(8);
  });
});
