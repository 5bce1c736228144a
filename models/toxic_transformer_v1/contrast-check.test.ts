import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contrastCases } from './contrast-check';

const HERE = join(process.cwd(), 'models/toxic_transformer_v1');
/** Lower-case words, every {placeholder} as `x`. */
const slotted = (s: string) =>
  s
    .replace(/\{[^}]+\}/g, ' x ')
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('validation-only contrast set', () => {
  const cases = contrastCases();

  it('fills every frame, leaving no placeholder, and keeps both classes', () => {
    expect(cases.length).toBeGreaterThan(300);
    for (const c of cases) expect(c.text, c.text).not.toMatch(/[{}]/);
    expect(new Set(cases.map((c) => c.harmful))).toEqual(new Set([true, false]));
  });

  it('shares no five-word run with the training frames of identity-contrast.json', () => {
    // The ship check is only meaningful on sentences neither model was fitted on.
    const frames = (v: unknown): string[] =>
      typeof v === 'string'
        ? /\{[^}]+\}/.test(v)
          ? [v]
          : []
        : Array.isArray(v)
          ? v.flatMap(frames)
          : v && typeof v === 'object'
            ? Object.values(v).flatMap(frames)
            : [];
    const read = (f: string) => frames(JSON.parse(readFileSync(join(HERE, f), 'utf8'))).map((x) => slotted(x));
    const training = read('identity-contrast.json').join(' | ');
    const validation = read('contrast-validation.json');
    expect(validation.length).toBeGreaterThan(10);
    for (const v of validation) {
      const w = v.split(' ');
      for (let i = 0; i + 5 <= w.length; i++) expect(training, v).not.toContain(w.slice(i, i + 5).join(' '));
    }
  });
});
