import { describe, expect, it } from 'vitest';
import { dynahateVerdictSection, type DynahateRow } from '@/scripts/eval-text/dynahate';
import type { SuiteCase } from '@/scripts/eval-text/functional-suite';
import { evaluateVerdictSuites, identitySection, selfHarmSection } from '@/scripts/eval-text/verdict-evaluation';
import { parseVerdictArgs } from '@/scripts/eval-text/verdict-metrics';
import type { VerdictSuite } from '@/scripts/eval-text/verdict-suites';
import type { Verdict } from '@/training/ml/verdicts';

const verdict = (summary: string, primaryIssue = summary === 'likely_safe' ? 'none' : 'identity_attack'): Verdict => ({
  flagged: summary !== 'likely_safe',
  score: summary === 'likely_safe' ? 0.2 : 0.7,
  summary,
  primaryIssue,
  sexismScore: 0,
  sexismFlagged: false,
  toxicity: { overall: 0, insult: 0, threat: 0, identity_attack: 0, profanity: 0 },
});
const cases = (category: string, expected: SuiteCase['expected'], group: string | null, n: number): SuiteCase[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${category}/${group}/${i}`,
    category,
    group,
    frame: '',
    text: `${category} ${group} ${i}`,
    expected,
  }));
const suite = (id: VerdictSuite['id'], cs: SuiteCase[], groups: VerdictSuite['file']['groups'] = []): VerdictSuite => ({
  id,
  path: `${id}.json`,
  file: { groups, fillers: { thing: [], item: [], who: [] }, categories: [] },
  cases: cs,
});
const value = (rows: { key: string; value: number | null }[], key: string) => rows.find((r) => r.key === key)?.value;

describe('verdict sections', () => {
  it('counts an identity flag for every summary but likely_safe, overall, per kind and per group, naming the worst group', () => {
    const groups = [
      { id: 'gay', kind: 'sexuality', plural: 'gay people', one: 'a gay man', slurs: [] },
      { id: 'deaf', kind: 'disability', plural: 'deaf people', one: 'a deaf man', slurs: [] },
    ];
    const s = suite(
      'identity',
      [...cases('identity_praise', 'not_harmful', 'gay', 4), ...cases('identity_praise', 'not_harmful', 'deaf', 4)],
      groups,
    );
    // gay: possibly_harmful counts as a flag (1 of 4) plus one highly_harmful; deaf: none.
    const v = [
      'possibly_harmful',
      'likely_safe',
      'highly_harmful',
      'likely_safe',
      'likely_safe',
      'likely_safe',
      'likely_safe',
      'likely_safe',
    ].map((x) => verdict(x));
    const rows = identitySection(s, v).rows;
    expect(value(rows, 'verdicts.identity.flag_rate')).toBe(0.25);
    expect(value(rows, 'verdicts.identity.max_group_flag_rate')).toBe(0.5);
    expect(rows.find((r) => r.key === 'verdicts.identity.max_group_flag_rate')!.metric).toContain('(gay)');
    expect(value(rows, 'verdicts.identity.kind.disability')).toBe(0);
    expect(value(rows, 'verdicts.identity.group.gay')).toBe(0.5);
  });

  it('rates self-harm recall, the share queued as self-harm, and figurative false flags', () => {
    const s = suite('self_harm', [
      ...cases('self_harm_intent', 'harmful', null, 4),
      ...cases('self_harm_figurative', 'not_harmful', null, 2),
    ]);
    const v = [
      verdict('highly_harmful', 'self_harm'),
      verdict('likely_harmful', 'threat'),
      verdict('likely_safe'),
      verdict('likely_safe'),
      verdict('possibly_harmful', 'toxicity'),
      verdict('likely_safe'),
    ];
    const rows = selfHarmSection(s, v).rows;
    expect(value(rows, 'verdicts.self_harm.intent_recall')).toBe(0.5);
    expect(value(rows, 'verdicts.self_harm.intent_queued_as_self_harm')).toBe(0.25);
    expect(value(rows, 'verdicts.self_harm.figurative_flag_rate')).toBe(0.5);
  });

  it('scores every suite and the reported failures, which stay out of the rows', async () => {
    const suites = [
      suite('identity', cases('identity_praise', 'not_harmful', 'gay', 2), [
        { id: 'gay', kind: 'sexuality', plural: 'gay people', one: 'a gay man', slurs: [] },
      ]),
      suite('use_mention', [...cases('slur_mention', 'not_harmful', null, 2), ...cases('slur_attack', 'harmful', null, 2)]),
      suite('self_harm', cases('self_harm_intent', 'harmful', null, 2)),
      suite('veiled_threat', cases('veiled_threat', 'harmful', null, 2)),
    ];
    // A fake scorer that flags everything.
    const scorer = async (texts: readonly string[]) => texts.map(() => verdict('highly_harmful', 'slur'));
    const r = await evaluateVerdictSuites(suites, [{ text: 'reported one', expected: 'not_harmful' }], scorer);
    const rows = r.sections.flatMap((s) => s.rows);
    expect(value(rows, 'verdicts.use_mention.balanced_accuracy')).toBe(0.5);
    expect(value(rows, 'verdicts.use_mention.category.slur_mention')).toBe(0);
    expect(r.errorsByCategory.slur_mention).toEqual({ slur: 2 });
    expect(r.reported).toEqual([
      { text: 'reported one', expected: 'not_harmful', summary: 'highly_harmful', primaryIssue: 'slur', score: 0.7, right: false },
    ]);
    expect(rows.some((x) => x.metric.includes('reported'))).toBe(false);
  });
});

describe('eval:verdicts options', () => {
  it('takes a models folder, a toxicity folder and an output file, in either form', () => {
    const a = parseVerdictArgs(['--models', '.', '--toxicity=models', '--out', 'x.json', '--no-write']);
    expect(a.models).toBe(process.cwd());
    expect(a.toxicity).toMatch(/\/models$/);
    expect(a.out).toMatch(/\/x\.json$/);
    expect(a.write).toBe(false);
  });

  it('refuses an unknown option, a missing value and a folder that is not there, naming each', () => {
    expect(() => parseVerdictArgs(['--model', 'x'])).toThrow(/unknown option --model/);
    expect(() => parseVerdictArgs(['--out'])).toThrow(/--out needs a value/);
    expect(() => parseVerdictArgs(['--toxicity', '/no/such/folder'])).toThrow(/--toxicity \/no\/such\/folder: no such folder/);
  });
});

describe('DynaHate as the API answers', () => {
  it('scores only the never-trained test-split rows, a flag being any summary but likely_safe', async () => {
    const row = (text: string, label: 0 | 1, split: DynahateRow['split']): DynahateRow => ({ text, clean: text, label, split });
    const rows = [row('h1', 1, 'test'), row('h2', 1, 'test'), row('n1', 0, 'test'), row('n2', 0, 'test'), row('t1', 1, 'train')];
    const seen: string[] = [];
    const scorer = async (texts: readonly string[]) => {
      seen.push(...texts);
      // both hate rows flagged, one of the two not-hate rows flagged
      return texts.map((t) => verdict(t === 'n2' ? 'likely_safe' : 'possibly_harmful'));
    };
    const section = await dynahateVerdictSection(rows, scorer);
    expect(seen).toEqual(['h1', 'h2', 'n1', 'n2']);
    expect(value(section.rows, 'verdicts.dynahate.test.balanced_accuracy')).toBeCloseTo(0.75);
    expect(value(section.rows, 'verdicts.dynahate.test.hate_flagged')).toBe(1);
    expect(value(section.rows, 'verdicts.dynahate.test.not_hate_flagged')).toBe(0.5);
  });
});
