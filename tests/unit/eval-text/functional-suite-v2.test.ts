import { describe, expect, it } from 'vitest';
import {
  expandSuite,
  LONG_MIN_CHARS,
  longProse,
  longText,
  readSuite,
  readSuiteV2,
  type SuiteFile,
} from '@/scripts/eval-text/functional-suite';

/** The categories the second suite file adds, plus the harmful counterparts that keep the set balanced. */
const V2_CATEGORIES: Record<string, 'harmful' | 'not_harmful'> = {
  counter_speech_v2: 'not_harmful',
  negation_v2: 'not_harmful',
  negation_v2_hateful: 'harmful',
  reported_speech: 'not_harmful',
  reported_speech_endorsed: 'harmful',
  identity_positive_v2: 'not_harmful',
  reclaimed_and_homonyms: 'not_harmful',
  implicit_threat: 'harmful',
  implicit_threat_group: 'harmful',
  long_text_harm_at_end: 'harmful',
  long_text_benign: 'not_harmful',
};

describe('functional suite v2', () => {
  const v1 = readSuite();
  const cases = expandSuite(readSuiteV2());

  it('has 300 or more cases, unique ids, no unfilled placeholder, and no category id of the first file', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) expect(c.text, c.id).not.toMatch(/[{}]/);
    const old = new Set(v1.categories.map((c) => c.id));
    for (const c of cases) expect(old.has(c.category), c.category).toBe(false);
  });

  it('has every category with its expected label and at least 30 cases, and both labels well represented', () => {
    for (const [cat, expected] of Object.entries(V2_CATEGORIES)) {
      const mine = cases.filter((c) => c.category === cat);
      expect(mine.length, cat).toBeGreaterThanOrEqual(30);
      expect([...new Set(mine.map((c) => c.expected))], cat).toEqual([expected]);
    }
    const harmful = cases.filter((c) => c.expected === 'harmful').length;
    expect(harmful / cases.length).toBeGreaterThan(0.4);
    expect(harmful / cases.length).toBeLessThan(0.6);
  });

  it('keeps slurs to the reclaimed and homonym category', () => {
    const slurs = v1.groups.flatMap((g) => g.slurs.flat()).map((s) => new RegExp(`\\b${s}\\b`, 'i'));
    for (const c of cases) {
      if (c.category === 'reclaimed_and_homonyms') continue;
      for (const re of slurs) expect(re.test(c.text), `${c.id}: ${re}`).toBe(false);
    }
  });

  it('builds long texts of 2,000-9,000 characters whose harmful version is the benign one plus an ending', () => {
    const harm = cases.filter((c) => c.category === 'long_text_harm_at_end');
    const benign = cases.filter((c) => c.category === 'long_text_benign');
    expect(harm.length).toBe(benign.length);
    const endings = readSuiteV2().categories.find((c) => c.id === 'long_text_harm_at_end')!.endings!;
    harm.forEach((h, k) => {
      const b = benign[k]!;
      for (const t of [h.text, b.text]) {
        expect(t.length).toBeGreaterThanOrEqual(2000);
        expect(t.length).toBeLessThanOrEqual(9000);
      }
      expect(h.text).toBe(`${b.text}\n\n${endings[k % endings.length]}`);
      for (const e of endings) expect(b.text.includes(e)).toBe(false);
    });
    // Different lengths and starting paragraphs, not one text repeated.
    expect(new Set(benign.map((b) => b.text.length)).size).toBeGreaterThan(benign.length / 2);
    expect(new Set(benign.map((b) => b.text.slice(0, 40))).size).toBeGreaterThan(10);
  });
});

describe('long text and rotation mechanisms', () => {
  const paragraphs = Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(65 + i)}${'x'.repeat(799)}`);

  it('takes paragraphs in order from a moving start, up to a length that moves with the index', () => {
    const p0 = longProse(paragraphs, 0);
    expect(p0.startsWith('A')).toBe(true);
    expect(p0.length).toBeGreaterThanOrEqual(LONG_MIN_CHARS);
    expect(p0.split('\n\n').map((p) => p[0])).toEqual(['A', 'B', 'C']);
    // k = 1: start (1 * 7) % 12 = H, target 2000 + 1237 characters, so five 802-character paragraphs.
    expect(
      longProse(paragraphs, 1)
        .split('\n\n')
        .map((p) => p[0]),
    ).toEqual(['H', 'I', 'J', 'K', 'L']);
    expect(longProse(paragraphs, 1)).toBe(longProse(paragraphs, 1));
  });

  it('appends the endings in turn, and none for the control', () => {
    expect(longText(paragraphs, ['E1', 'E2'], 3).endsWith('\n\nE2')).toBe(true);
    expect(longText(paragraphs, ['E1', 'E2'], 4).endsWith('\n\nE1')).toBe(true);
    expect(longText(paragraphs, [], 3)).toBe(longProse(paragraphs, 3));
  });

  it('refuses paragraphs too short for the length asked', () => {
    expect(() => longProse(['short', 'also short'], 0)).toThrow(/fewer than/);
  });

  it('rotates groups through the frames with groupsPerFrame, and takes a `none` frame as one sentence', () => {
    const g = (id: string) => ({ id, plural: `${id}s`, one: `a ${id}`, slurs: [] });
    const suite: SuiteFile = {
      groups: [g('a'), g('b'), g('c')],
      fillers: { thing: [], item: [], who: [] },
      categories: [
        { id: 'rot', expected: 'not_harmful', uses: 'group', groupsPerFrame: 2, frames: ['{Group} one.', 'Two {group}.'] },
        { id: 'lit', expected: 'harmful', uses: 'none', frames: ['A whole sentence.'] },
      ],
    };
    expect(expandSuite(suite).map((c) => c.text)).toEqual(['As one.', 'Bs one.', 'Two cs.', 'Two as.', 'A whole sentence.']);
    suite.categories[1]!.frames = ['A {slot} left in.'];
    expect(() => expandSuite(suite)).toThrow(/no value for \{slot\}/);
  });
});
