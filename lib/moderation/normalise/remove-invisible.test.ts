/**
 * An invisible character inside a word must not hide it from the rules: every default-ignorable
 * code point, every format character and the ranges named below, anywhere in a self-harm or threat
 * sentence, leaves the flag raised; and removing them never touches a visible character.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fakeLoaders } from '@/tests/fixtures/fake-moderation-models';
import { ModelRegistry } from '../model-registry';
import { moderate } from '../moderate';
import { preprocess } from '../preprocess';
import { createRulesEngine } from '../rules';
import { removeInvisible, stripInvisible } from './remove-invisible';

const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
const FORMAT = /^\p{Cf}$/u;
/** Ranges that split words and must be covered whatever the engine's Unicode data says of them. */
const NAMED_RANGES: [number, number][] = [
  [0xe0001, 0xe007f], // tag characters
  [0xe0100, 0xe01ef], // variation selectors 17-256
  [0x1d173, 0x1d17a], // musical beam, tie, slur and phrase controls
  [0x1bca0, 0x1bca3], // shorthand format controls
  [0x13430, 0x1343f], // Egyptian hieroglyph format controls
  [0xfff9, 0xfffb], // interlinear annotation marks
];

function codePoints(): string[] {
  const out = new Set<string>();
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    if (DEFAULT_IGNORABLE.test(c) || FORMAT.test(c)) out.add(c);
  }
  for (const [from, to] of NAMED_RANGES) for (let cp = from; cp <= to; cp++) out.add(String.fromCodePoint(cp));
  return [...out];
}

const INVISIBLE = codePoints();
const IS_INVISIBLE = new Set(INVISIBLE);
const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

const rules = createRulesEngine();
const flagsOf = (text: string) => rules.evaluate(preprocess(text)).label;

/** Sentences the rules flag, and the flag each raises. */
const FLAGGED = [
  { text: 'kill myself', flag: 'self_harm_flag' },
  { text: 'i want to kill myself', flag: 'self_harm_flag' },
  { text: 'i will kill you', flag: 'threat_detected' },
  { text: 'im going to kill you', flag: 'threat_detected' },
] as const;

/**
 * `text` with each `[position, character]` inserted, positions in code points taken modulo the
 * length so far. Code points, not UTF-16 units: an insertion inside an earlier astral character
 * (the tag block) would split its surrogate pair into two lone surrogates, which render as
 * replacement characters, not as nothing.
 */
function insertAll(text: string, insertions: readonly (readonly [number, string])[]): string {
  const out = Array.from(text);
  for (const [at, c] of insertions) out.splice(at % (out.length + 1), 0, c);
  return out.join('');
}

/** Insertions of invisible characters: the tag block is most of the set, so draw from each part alike. */
const invisibleChar = fc.oneof(
  fc.constantFrom(...INVISIBLE.filter((c) => c.codePointAt(0)! < 0xe0000)),
  fc.constantFrom(...INVISIBLE.filter((c) => c.codePointAt(0)! >= 0xe0000)),
);
const insertions = fc.array(fc.tuple(fc.nat(), invisibleChar), { minLength: 1, maxLength: 5 });

describe('invisible characters', () => {
  it('covers every default-ignorable code point, every format character and the named ranges', () => {
    expect(INVISIBLE.length).toBeGreaterThan(4_000);
    const kept = INVISIBLE.filter((c) => stripInvisible(`ki${c}ll`) !== 'kill').map(hex);
    expect(kept).toEqual([]);
    expect(INVISIBLE.filter((c) => removeInvisible(`ki${c}ll`) !== 'kill').map(hex)).toEqual([]);
  });

  it.each(FLAGGED)('keeps $flag on $text with any one of them inside "kill"', ({ text, flag }) => {
    expect(flagsOf(text)[flag]).toBe(true);
    const missed = INVISIBLE.filter((c) => !flagsOf(text.replace('kill', `ki${c}ll`))[flag]).map(hex);
    expect(missed).toEqual([]);
  });

  it('keeps the self-harm and threat flags with several of them anywhere in the sentence', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FLAGGED), insertions, ({ text, flag }, inserted) => {
        expect(flagsOf(insertAll(text, inserted))[flag]).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('flags "i want to ki<U+E0020>ll myself" as self-harm, and moderation does not call it likely safe', async () => {
    const text = 'i want to ki\u{E0020}ll myself';
    expect(flagsOf(text).self_harm_flag).toBe(true);
    const models = await new ModelRegistry(fakeLoaders({ rules: async () => createRulesEngine() })).models();
    const [hidden, plain] = await moderate(models, [text, 'i want to kill myself']);
    expect(hidden!.ensemble.summary).not.toBe('likely_safe');
    expect(hidden!.ensemble).toEqual(plain!.ensemble);
  });

  it('removes nothing a reader sees: letters of any script, marks, emoji, spaces and punctuation stay', () => {
    for (const text of ['שלום עולם', 'مرحبا بالعالم', 'नमस्ते दुनिया', 'e\u0301', '😀 👍', 'tab\tand\nnewline', '١٢٣ ۱۲۳']) {
      expect(stripInvisible(text)).toBe(text);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const visible = [...text].filter((c) => !IS_INVISIBLE.has(c)).join('');
        expect(stripInvisible(text)).toBe(visible);
      }),
      { numRuns: 500 },
    );
  });

  it('turns other control characters into spaces', () => {
    expect(removeInvisible('a\u0000b\u0085c')).toBe('a b c');
  });
});
