import { describe, expect, it } from 'vitest';
import { expandSuite, fillFrame, readSuite } from '@/scripts/eval-text/functional-suite';

const REQUIRED_GROUPS = [
  'women',
  'men',
  'trans_people',
  'gay_people',
  'lesbians',
  'bisexual_people',
  'black_people',
  'asian_people',
  'jews',
  'muslims',
  'christians',
  'hindus',
  'immigrants',
  'refugees',
  'disabled_people',
  'mexicans',
  'arabs',
  'latinos',
  'indigenous_people',
  'elderly_people',
  'roma',
  'chinese_people',
  'indians',
  'atheists',
  'sikhs',
  'deaf_people',
];
/** The categories the suite must hold, each with the expected label the suite gives it (decision 075). */
const REQUIRED_CATEGORIES: Record<string, 'harmful' | 'not_harmful'> = {
  derogation_explicit: 'harmful',
  derogation_implicit: 'harmful',
  dehumanisation: 'harmful',
  threat_direct: 'harmful',
  threat_normative: 'harmful',
  slur: 'harmful',
  profanity_hateful: 'harmful',
  profanity_nonhateful: 'not_harmful',
  negation_of_hate: 'not_harmful',
  questions_opinions_benign: 'not_harmful',
  questions_opinions_hateful: 'harmful',
  counter_speech_quote: 'not_harmful',
  counter_speech_report: 'not_harmful',
  identity_neutral: 'not_harmful',
  identity_positive: 'not_harmful',
  abuse_object: 'not_harmful',
  abuse_individual: 'harmful',
  spelling_variants: 'harmful',
};

describe('functional suite expansion', () => {
  const cases = expandSuite();

  it('has at least 2,000 cases, unique ids and texts with no unfilled placeholder', () => {
    expect(cases.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) expect(c.text).not.toMatch(/[{}]/);
  });

  it('covers at least 25 identity groups, each the required ones, with enough cases per group', () => {
    const perGroup = new Map<string, number>();
    for (const c of cases) if (c.group) perGroup.set(c.group, (perGroup.get(c.group) ?? 0) + 1);
    expect(perGroup.size).toBeGreaterThanOrEqual(25);
    for (const g of REQUIRED_GROUPS) expect(perGroup.get(g) ?? 0, g).toBeGreaterThanOrEqual(100);
  });

  it('has every required category with its expected label and at least 40 cases', () => {
    const byCat = new Map<string, { n: number; expected: Set<string> }>();
    for (const c of cases) {
      const e = byCat.get(c.category) ?? { n: 0, expected: new Set<string>() };
      e.n++;
      e.expected.add(c.expected);
      byCat.set(c.category, e);
    }
    for (const [cat, expected] of Object.entries(REQUIRED_CATEGORIES)) {
      expect(byCat.get(cat)?.n ?? 0, cat).toBeGreaterThanOrEqual(40);
      expect([...(byCat.get(cat)?.expected ?? [])], cat).toEqual([expected]);
    }
  });

  it('gives each group at least 30 neutral or positive statements (a 5 % per-group rate needs them)', () => {
    for (const g of readSuite().groups) {
      const n = cases.filter((c) => c.group === g.id && (c.category === 'identity_neutral' || c.category === 'identity_positive')).length;
      expect(n, g.id).toBeGreaterThanOrEqual(30);
    }
  });

  it('expands deterministically', () => {
    expect(expandSuite()).toEqual(cases);
    expect(cases[0]!.text).toBe('Women are the most worthless people on earth.');
  });
});

describe('fillFrame', () => {
  it('capitalises a capitalised placeholder and leaves proper nouns alone', () => {
    expect(fillFrame('{Group} are here; I met {one}.', { group: 'trans people', one: 'a trans person' })).toBe(
      'Trans people are here; I met a trans person.',
    );
    expect(fillFrame('I like {group}.', { group: 'Jews' })).toBe('I like Jews.');
  });

  it('refuses a placeholder it has no value for', () => {
    expect(() => fillFrame('{Group} and {slur}', { group: 'x' })).toThrow(/no value for \{slur\}/);
  });
});
