import { describe, expect, it } from 'vitest';
import { readSuite, type SuiteFile } from '@/scripts/eval-text/functional-suite';
import {
  bothSuites,
  evaluationSuites,
  findTemplateFiles,
  measureOverlap,
  normaliseFrame,
  overlapReports,
  sharesTemplate,
  v2AgainstV1,
} from '@/scripts/eval-text/template-overlap';
import { VERDICT_SUITES } from '@/scripts/eval-text/verdict-suites';

const tiny: SuiteFile = {
  groups: [{ id: 'jews', plural: 'Jews', one: 'a Jewish person', slurs: [] }],
  fillers: { thing: [], item: [], who: [] },
  categories: [
    {
      id: 'identity_neutral',
      expected: 'not_harmful',
      uses: 'group',
      frames: ['My neighbour is {one}.', '{Group} cook wonderful food on holidays.'],
    },
  ],
};

describe('template overlap check', () => {
  // Every suite against every template file: computed once, read by two tests.
  let all: ReturnType<typeof overlapReports> | undefined;
  const reports = () => (all ??= overlapReports());

  it('finds the training and validation template files under training/', () => {
    const paths = findTemplateFiles().map((f) => f.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.some((p) => p.includes('identity-augmentation'))).toBe(true);
  });

  it('covers both functional suite files and every verdict suite file', () => {
    const paths = evaluationSuites().map((s) => s.path);
    expect(paths[0]).toContain('functional-suite-v2.json');
    for (const file of Object.values(VERDICT_SUITES))
      expect(
        paths.some((p) => p.endsWith(file)),
        file,
      ).toBe(true);
  });

  it('no evaluation suite shares a frame with any template file in the repository', () => {
    for (const r of reports()) {
      expect(r.sharedFrames, `${r.suite} vs ${r.file}`).toEqual([]);
    }
  });

  it("the models' training and validation templates share no content trigram with the suite either", () => {
    // A frame with its slots filled differently ("{Group} have made huge contributions to {thing}"
    // against "... to science and art") stays under the frame check's Jaccard bar; a shared trigram
    // catches it. The rule tables (models/rules_v1) are patterns, not sentences a model learns from:
    // a phrase such as "i hope <slot>" may stand in both.
    for (const r of reports()) {
      if (r.file.includes('rules_v1')) continue;
      expect(r.sharedTrigrams, `${r.suite} vs ${r.file}`).toEqual([]);
    }
  });

  it('fails a verdict suite whose frame matches a template through its adjective and person forms, or shares one trigram', () => {
    const suite: SuiteFile = {
      groups: [{ id: 'gay', plural: 'gay people', one: 'a gay man', adj: 'gay', person: 'gay man', slurs: [] }],
      fillers: { thing: [], item: [], who: [], name: ['Kim'] },
      categories: [{ id: 'identity_praise', expected: 'not_harmful', uses: 'group', frames: ['{Name} is a wonderful {person}.'] }],
    };
    const same = measureOverlap(suite, { path: 'fake.json', frames: ['{name} is a wonderful {adj} {noun}!'], groupWords: [] });
    expect(same.sharedFrames).toHaveLength(1);
    const trigram = measureOverlap(suite, { path: 'fake.json', frames: ['Everyone on the bus said she is wonderful gay'], groupWords: [] });
    expect(trigram.sharedFrames).toEqual([]);
    expect(trigram.sharedTrigrams).toEqual(['is wonderful <slot>']);
    expect(sharesTemplate(trigram)).toBe(true);
    expect(sharesTemplate(measureOverlap(suite, { path: 'fake.json', frames: ['The bakery opens early.'], groupWords: [] }))).toBe(false);
  });

  it('detects a frame shared under other placeholder and group names', () => {
    const r = measureOverlap(tiny, { path: 'fake.json', frames: ['My neighbour is a {person}!'], groupWords: ['muslim'] });
    expect(r.sharedFrames.map((s) => s.suite)).toEqual(['My neighbour is {one}.']);
  });

  it('detects a near copy by its content trigrams, and passes an unrelated frame', () => {
    const near = measureOverlap(tiny, { path: 'fake.json', frames: ['{plural} cook wonderful food on holidays too'], groupWords: [] });
    expect(near.sharedFrames).toHaveLength(1);
    const far = measureOverlap(tiny, {
      path: 'fake.json',
      frames: ['The {adj} bakery on the corner opens early.'],
      groupWords: ['jewish'],
    });
    expect(far.sharedFrames).toEqual([]);
    expect(far.trigramShare).toBe(0);
  });

  it('checks the second suite file too, with its long-text endings and paragraphs', () => {
    const both = bothSuites();
    expect(both.categories.some((c) => c.id === 'implicit_threat')).toBe(true);
    const ending = both.categories.find((c) => c.id === 'long_text_harm_at_end')!.endings![0]!;
    const paragraph = both.paragraphs![0]!;
    for (const copied of [ending, paragraph]) {
      const r = measureOverlap(both, { path: 'fake.json', frames: [`{Plural} ${copied}`], groupWords: [] });
      expect(r.sharedFrames.length, copied.slice(0, 30)).toBeGreaterThan(0);
    }
  });

  it('the second suite file shares no frame with the first', () => {
    expect(v2AgainstV1().sharedFrames).toEqual([]);
  });

  it('normalises placeholders and group words to one slot', () => {
    const groups = new Set(['jewish', 'muslim']);
    expect(normaliseFrame('I met a {adj} {person} today.', groups)).toEqual(['i', 'met', '<slot>', 'today']);
    expect(normaliseFrame('I met a Muslim today.', groups)).toEqual(['i', 'met', '<slot>', 'today']);
  });

  it('reports shared words for the real files without failing on them', () => {
    const reports = overlapReports([{ path: 'functional-suite.json', suite: readSuite() }]);
    for (const r of reports) {
      expect(r.contentWordShare).toBeGreaterThanOrEqual(0);
      expect(r.contentWordShare).toBeLessThan(0.5);
    }
  });
});
