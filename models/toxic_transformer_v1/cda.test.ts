import { describe, expect, it } from 'vitest';
import { CDA_ADJ, CDA_PLURAL, counterfactual, namedGroups } from './cda';

describe('counterfactual (CDA for training rows and CLP pairs)', () => {
  it('returns null for a text that names no group', () => {
    expect(counterfactual('The weather was lovely and the train was on time.')).toBeNull();
    // colour words are group terms only before a people noun
    expect(counterfactual('The white car parked next to a black cat.')).toBeNull();
  });

  it('swaps a term for another of the same kind, keeping case, deterministically', () => {
    const a = counterfactual('Muslims are my neighbours.');
    expect(a).not.toBeNull();
    expect(a).toBe(counterfactual('Muslims are my neighbours.'));
    const swapped = a!.split(' ')[0]!;
    expect(swapped).not.toBe('Muslims');
    expect(CDA_PLURAL).toContain(swapped.toLowerCase());
    expect(swapped[0]).toBe(swapped[0]!.toUpperCase());
    const b = counterfactual('my gay coworker brought cookies');
    expect(CDA_ADJ).toContain(b!.split(' ')[1]);
    expect(b!.split(' ').slice(2).join(' ')).toBe('coworker brought cookies');
  });

  it('replaces every occurrence of one term by the same substitute', () => {
    const out = counterfactual('jewish food and jewish music')!;
    const words = out.split(' ');
    expect(words[0]).toBe(words[3]);
    expect(words[0]).not.toBe('jewish');
  });
});

describe('namedGroups', () => {
  it('canonicalises plurals and nouns to one key per group, in order', () => {
    expect(namedGroups('Jews and Jewish people; Muslims, a muslim. White people too.')).toEqual(['jewish', 'muslim', 'white']);
    expect(namedGroups('migrants and immigrants')).toEqual(['immigrant']);
    expect(namedGroups('a white wall')).toEqual([]);
  });
});
