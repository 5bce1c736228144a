import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTrigrams, normaliseFrame, parseTemplateJson } from '@/scripts/eval-text/template-overlap';
import { contrastCases } from './contrast-cases';

const HERE = join(process.cwd(), 'training/toxic_transformer_v1');
describe('validation-only contrast set', () => {
  const cases = contrastCases();

  it('fills every frame, leaving no placeholder, and keeps both classes', () => {
    expect(cases.length).toBeGreaterThan(300);
    for (const c of cases) expect(c.text, c.text).not.toMatch(/[{}]/);
    expect(new Set(cases.map((c) => c.harmful))).toEqual(new Set([true, false]));
  });

  it('validation frames share no content trigram with any training frame', () => {
    // Thresholds (identity-validation.json) and the ship check (contrast-validation.json) are only
    // meaningful on sentences the model was not fitted on: not the same frame, and not a near copy
    // ("{Plural} should be treated with respect." against "Every {person} should be treated with
    // respect."). Same normalisation and trigrams as the suite's overlap check.
    // Every template file in this folder: a file named *-validation.json is validation, any other
    // is training (a new training file cannot be left out of the check by a list kept by hand).
    const read = (f: string) => parseTemplateJson(JSON.parse(readFileSync(join(HERE, f), 'utf8')));
    const files = readdirSync(HERE).filter((f) => f.endsWith('.json') && read(f) !== null);
    const training = files.filter((f) => !f.endsWith('-validation.json')).map(read);
    const validation = files.filter((f) => f.endsWith('-validation.json')).map(read);
    expect(training.length).toBeGreaterThanOrEqual(2);
    expect(validation.length).toBe(4);
    const groupWords = new Set([...training, ...validation].flatMap((t) => t?.groupWords ?? []));
    const trainTrigrams = new Map<string, string>();
    for (const t of training) {
      expect(t).not.toBeNull();
      for (const f of t!.frames) for (const g of contentTrigrams(normaliseFrame(f, groupWords))) trainTrigrams.set(g, f);
    }
    const shared: string[] = [];
    let n = 0;
    for (const v of validation) {
      for (const f of v!.frames) {
        n++;
        for (const g of contentTrigrams(normaliseFrame(f, groupWords)))
          if (trainTrigrams.has(g)) shared.push(`"${f}" ~ "${trainTrigrams.get(g)}" (${g})`);
      }
    }
    expect(n).toBeGreaterThan(40);
    expect(shared).toEqual([]);
  });
});
