/**
 * One look-alike letter must not hide a threat or self-harm: every confusable (UTS #39) of every
 * letter of the rules' trigger words, put in place of that letter, leaves the rule firing. Real
 * non-Latin text, the pronoun "I" and "||" between words stay as written.
 */
import fc from 'fast-check';
import uts39 from 'unhomoglyph/data.json';
import { describe, expect, it } from 'vitest';
import selfHarm from '@/lib/moderation/lexicons/self-harm.json';
import threats from '@/lib/moderation/lexicons/threats.json';
import { ModelRegistry } from '@/lib/moderation/model-registry';
import { moderate } from '@/lib/moderation/moderate';
import { preprocess } from '@/lib/moderation/preprocess';
import { createRulesEngine } from '@/lib/moderation/rules/rules-engine';
import { fakeLoaders } from '@/tests/fixtures/fake-moderation-models';
import { foldHomoglyphs } from './fold-homoglyphs';

const engine = createRulesEngine();
const SKELETON = uts39 as Record<string, string>;

/**
 * Every code point whose UTS #39 skeleton is that of `letter` or of its capital. Other letters
 * that share the skeleton are not its confusables: "l" and "ｌ" have the skeleton of "I" but are not an "i".
 */
function confusablesOf(letter: string): string[] {
  const targets = new Set([letter, letter.toUpperCase()].map((l) => SKELETON[l] ?? l));
  // NFKC, which `visible` applies first, turns "Ϲ" (lunate sigma) into "Σ", which imitates no C.
  const otherLetter = (source: string) =>
    source === '\u03F9' || (/^[A-Za-z]$/.test(source.normalize('NFKC')) && source.normalize('NFKC').toLowerCase() !== letter);
  return Object.entries(SKELETON)
    .filter(([source, skeleton]) => targets.has(skeleton) && !otherLetter(source))
    .map(([source]) => source);
}

/** A trigger sentence for each harm verb of threats.json and each self-harm verb of self-harm.json. */
function triggerSentences(): { flag: 'threat_detected' | 'self_harm_flag'; verb: string; sentence: (verb: string) => string }[] {
  const out: ReturnType<typeof triggerSentences> = [];
  for (const verb of threats.lists.harm) out.push({ flag: 'threat_detected', verb, sentence: (v) => `i will ${v} you` });
  const SELF_HARM_VERBS = /^(?:\{desire\} )?\(([a-z|]+)\) \{myself\}/;
  for (const { template } of selfHarm.patterns) {
    const verbs = SELF_HARM_VERBS.exec(template)?.[1]?.split('|') ?? [];
    for (const verb of verbs) out.push({ flag: 'self_harm_flag', verb, sentence: (v) => `i want to ${v} myself` });
  }
  return out;
}

const TRIGGERS = triggerSentences();
const fires = (text: string, flag: 'threat_detected' | 'self_harm_flag') => engine.evaluate(preprocess(text)).label[flag];

describe('look-alike letters in threats and self-harm', () => {
  it.each([
    ['i will kιll you', 'threat'], // Greek iota
    ['i will kıll you', 'threat'], // dotless i
    ['i will kɩll you', 'threat'], // Latin iota
    ['i will kiŀl you', 'threat'], // l with middle dot
    ['i will kiII you', 'threat'], // capital I for l
    ['i will ki|| you', 'threat'], // pipes for l
    ['kιll yourself', 'threat'],
    ['kıll yourself', 'threat'],
    ['ki|| yourself', 'threat'],
    ['kiII yourself', 'threat'],
    ['i want to kιll myself', 'self_harm'],
    ['i want to kɩll myself', 'self_harm'],
    ['i want to kiŀl myself', 'self_harm'],
    ['i want to ki|| myself', 'self_harm'],
    ['i want to ki\u0307ll myself', 'self_harm'], // combining dot above
    ['i want to ki\u0332ll myself', 'self_harm'], // combining low line
    ['i want to k\u0332i\u0332l\u0332l\u0332 myself', 'self_harm'],
  ])('%j is not likely_safe (%s)', async (text, issue) => {
    const models = await new ModelRegistry(fakeLoaders({ rules: async () => createRulesEngine() })).models();
    const [r] = await moderate(models, [text], { explain: true });
    expect(r!.ensemble.summary).not.toBe('likely_safe');
    expect(r!.ensemble.primary_issue).toBe(issue);
    // The span still points at the text as written.
    const span = r!.explanations!.rules.find((m) => m.flag === (issue === 'threat' ? 'threat_detected' : 'self_harm_flag'));
    expect(span && text.slice(span.start, span.end)).toContain(text.match(/k\S*/u)![0]);
  });

  it('every trigger sentence fires as written (the property below starts from them)', () => {
    expect(TRIGGERS.length).toBeGreaterThan(30);
    for (const t of TRIGGERS) expect(fires(t.sentence(t.verb), t.flag), t.sentence(t.verb)).toBe(true);
  });

  it('fires with any confusable of any letter of a trigger word in its place', () => {
    // Every (letter, confusable) pair once, each in a trigger word holding that letter (they take turns).
    const failures: string[] = [];
    const letters = new Set(TRIGGERS.flatMap((t) => [...t.verb].filter((ch) => /[a-z]/.test(ch))));
    for (const letter of letters) {
      const holders = TRIGGERS.filter((t) => t.verb.includes(letter));
      confusablesOf(letter).forEach((c, k) => {
        const t = holders[k % holders.length]!;
        const at = t.verb.indexOf(letter);
        const text = t.sentence(t.verb.slice(0, at) + c + t.verb.slice(at + 1));
        if (!fires(text, t.flag)) failures.push(`${text} U+${c.codePointAt(0)!.toString(16)}`);
      });
    }
    expect(failures).toEqual([]);
  });

  it('fires with confusables in place of several letters of a trigger word at once', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TRIGGERS), fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }), (t, swaps) => {
        const chars = [...t.verb];
        for (const [position, pick] of swaps) {
          const at = position % chars.length;
          const options = /[a-z]/.test(t.verb[at]!) ? confusablesOf(t.verb[at]!) : [];
          if (options.length > 0) chars[at] = options[pick % options.length]!;
        }
        expect(fires(t.sentence(chars.join('')), t.flag), t.sentence(chars.join(''))).toBe(true);
      }),
      { numRuns: 300, seed: 43 },
    );
  });
});

describe('folding leaves real text alone', () => {
  it.each([
    'Ελληνικά κείμενα για όλους',
    'Я тебя люблю и буду любить всегда',
    'I think I will, and I know I can',
    'run a || b, or a | b, then x||y',
    'call getId() and userID in WWII and World War II',
    'Illinois, iPhone and McIntosh',
    '日本語のテキスト',
  ])('%j', (text) => {
    expect(foldHomoglyphs(text)).toBe(text);
  });

  it('folds the marks and look-alikes of a Latin word and keeps its case', () => {
    expect(foldHomoglyphs('Kιll the LIGHTS, kırmızı café')).toBe('Kill the LIGHTS, kirmizi cafe');
    expect(foldHomoglyphs('θα σε kιll αύριο το πρωί')).toBe('θα σε kill αύριο το πρωί');
  });

  it('reads a stroke alone as the pronoun', () => {
    expect(foldHomoglyphs('ǀ will kill you')).toBe('I will kill you');
  });
});
