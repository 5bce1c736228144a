import { describe, expect, it } from 'vitest';
import algospeak from '@/lib/moderation/lexicons/algospeak.json';
import { algospeakEdits } from './replace-algospeak';
import { applyEdits } from './text-edits';

const run = (t: string) => applyEdits(t, algospeakEdits(t)).text;

describe('replace-algospeak (lib/moderation/lexicons/algospeak.json)', () => {
  it.each(algospeak.examples.positive)('rewrites %j -> %j', (input, expected) => {
    expect(run(input)).toBe(expected);
  });

  it.each(algospeak.examples.negative)('leaves %j alone', (input) => {
    expect(run(input)).toBe(input);
  });

  it('names a documented source for every entry', () => {
    for (const term of algospeak.terms) {
      expect(term.sources.length, term.means).toBeGreaterThan(0);
      for (const s of term.sources) expect(Object.keys(algospeak.sources), s).toContain(s);
    }
  });
});
