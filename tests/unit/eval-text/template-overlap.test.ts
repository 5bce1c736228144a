import { describe, expect, it } from 'vitest';
import { readSuite, type SuiteFile } from '@/scripts/eval-text/functional-suite';
import {
  bothSuites,
  findTemplateFiles,
  measureOverlap,
  normaliseFrame,
  overlapReports,
  v2AgainstV1,
} from '@/scripts/eval-text/template-overlap';

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
  it('finds the training and validation template files under training/', () => {
    const paths = findTemplateFiles().map((f) => f.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.some((p) => p.includes('identity-augmentation'))).toBe(true);
  });

  it('the functional suite shares no frame with any template file in the repository', () => {
    for (const r of overlapReports()) {
      expect(r.sharedFrames, r.file).toEqual([]);
    }
  });

  it("the models' training and validation templates share no content trigram with the suite either", () => {
    // A frame with its slots filled differently ("{Group} have made huge contributions to {thing}"
    // against "... to science and art") stays under the frame check's Jaccard bar; a shared trigram
    // catches it. The rule tables (models/rules_v1) are patterns, not sentences a model learns from:
    // a phrase such as "i hope <slot>" may stand in both.
    for (const r of overlapReports()) {
      if (r.file.includes('rules_v1')) continue;
      expect(r.sharedTrigrams, r.file).toEqual([]);
    }
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
    const reports = overlapReports(readSuite());
    for (const r of reports) {
      expect(r.contentWordShare).toBeGreaterThanOrEqual(0);
      expect(r.contentWordShare).toBeLessThan(0.5);
    }
  });
});
