import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandSuite, type SuiteFile } from '@/scripts/eval-text/functional-suite';
import { readReportedFailures, readVerdictSuites, type VerdictSuite } from '@/scripts/eval-text/verdict-suites';

/** Per suite: each category it must hold, with its expected label. */
const CATEGORIES: Record<VerdictSuite['id'], Record<string, 'harmful' | 'not_harmful'>> = {
  identity: {
    identity_praise: 'not_harmful',
    identity_self: 'not_harmful',
    identity_neutral: 'not_harmful',
    identity_noun_form: 'not_harmful',
    identity_slogan: 'not_harmful',
    identity_slogan_fixed: 'not_harmful',
  },
  use_mention: {
    counter_quote: 'not_harmful',
    counter_refer: 'not_harmful',
    negated_hate: 'not_harmful',
    slur_mention: 'not_harmful',
    slur_reported: 'not_harmful',
    slur_reclaimed: 'not_harmful',
    slur_homonym: 'not_harmful',
    hate_direct: 'harmful',
    hate_dehumanising: 'harmful',
    hate_threat: 'harmful',
    hate_negated: 'harmful',
    quote_endorsed: 'harmful',
    slur_attack: 'harmful',
    slur_label: 'harmful',
  },
  self_harm: {
    self_harm_intent: 'harmful',
    self_harm_encouragement: 'harmful',
    self_harm_figurative: 'not_harmful',
    self_harm_safe_context: 'not_harmful',
    self_harm_intent_2: 'harmful',
    self_harm_safe_2: 'not_harmful',
    self_harm_intent_3: 'harmful',
    self_harm_safe_3: 'not_harmful',
  },
  veiled_threat: { veiled_threat: 'harmful', threat_lookalike: 'not_harmful' },
};

describe('verdict suites', () => {
  const suites = readVerdictSuites();
  const all = suites.flatMap((s) => s.cases);

  it('hold a thousand to 1,600 cases, unique ids and texts, no unfilled placeholder', () => {
    expect(all.length).toBeGreaterThanOrEqual(1000);
    expect(all.length).toBeLessThanOrEqual(1600);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    expect(new Set(all.map((c) => c.text)).size).toBe(all.length);
    for (const c of all) expect(c.text, c.id).not.toMatch(/[{}]/);
  });

  it('have every category with its expected label and at least 15 cases', () => {
    for (const s of suites) {
      for (const [cat, expected] of Object.entries(CATEGORIES[s.id])) {
        const mine = s.cases.filter((c) => c.category === cat);
        expect(mine.length, cat).toBeGreaterThanOrEqual(15);
        expect([...new Set(mine.map((c) => c.expected))], cat).toEqual([expected]);
      }
    }
  });

  it('name 60 or more groups across the seven kinds in the identity suite, each in ten or more sentences', () => {
    const identity = suites.find((s) => s.id === 'identity')!;
    expect(identity.file.groups.length).toBeGreaterThanOrEqual(60);
    expect(new Set(identity.file.groups.map((g) => g.kind))).toEqual(
      new Set(['race', 'religion', 'nationality', 'gender', 'sexuality', 'disability', 'age']),
    );
    for (const g of identity.file.groups) expect(identity.cases.filter((c) => c.group === g.id).length, g.id).toBeGreaterThanOrEqual(10);
  });

  it('balance hateful and benign cases in the use-mention suite', () => {
    const um = suites.find((s) => s.id === 'use_mention')!.cases;
    const harmful = um.filter((c) => c.expected === 'harmful').length / um.length;
    expect(harmful).toBeGreaterThan(0.4);
    expect(harmful).toBeLessThan(0.6);
  });

  it('keep the reported failures out of every suite', () => {
    const texts = new Set(all.map((c) => c.text.toLowerCase()));
    const reported = readReportedFailures();
    expect(reported.length).toBeGreaterThan(0);
    for (const r of reported) expect(texts.has(r.text.toLowerCase()), r.text).toBe(false);
  });
});

describe('suite expansion for group forms', () => {
  const file = (frames: string[], groups: SuiteFile['groups']): SuiteFile => ({
    groups,
    fillers: { thing: [], item: [], who: [], name: ['Kim', 'Ari'] },
    categories: [{ id: 'praise', expected: 'not_harmful', uses: 'group', frames }],
  });
  const gay = { id: 'gay', plural: 'gay people', one: 'a gay man', adj: 'gay', person: 'gay man', noun: 'gay', slurs: [] };
  const deaf = { id: 'deaf', plural: 'deaf people', one: 'a deaf man', adj: 'deaf', person: 'deaf man', slurs: [] };

  it('fills adjective, person and noun forms and rotates the names; the noun falls back to the person', () => {
    const texts = expandSuite(file(['{Name} is a kind {noun}; {Adj} and proud.'], [gay, deaf])).map((c) => c.text);
    expect(texts).toEqual(['Kim is a kind gay; Gay and proud.', 'Ari is a kind deaf man; Deaf and proud.']);
  });

  it('refuses a frame that needs a form the group lacks, and a category that expands to nothing', () => {
    expect(() => expandSuite(file(['{Adj} and proud.'], [{ id: 'x', plural: 'xs', one: 'an x', slurs: [] }]))).toThrow(
      /no value for \{Adj\}/,
    );
    expect(() => expandSuite(file(['{Group} are here.'], []))).toThrow(/expands to no case/);
  });
});

describe('reported failures file', () => {
  it('refuses a case without a valid expected label, naming it', () => {
    const p = join(mkdtempSync(join(tmpdir(), 'reported-')), 'r.json');
    writeFileSync(
      p,
      JSON.stringify({
        cases: [
          { text: 'ok', expected: 'harmful' },
          { text: 'x', expected: 'bad' },
        ],
      }),
    );
    expect(() => readReportedFailures(p)).toThrow(/case 1: bad expected "bad"/);
  });
});
