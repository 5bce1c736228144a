/**
 * The review queue's identity of a text (also computed by the browser from normaliseForHash): a
 * text with invisible characters inserted is the same item as the text without them, so hiding
 * one in a flagged text cannot open a second queue item beside the first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseForHash } from './normalise-text';
import { textHash } from './text-hash';

const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
const FORMAT = /^\p{Cf}$/u;

function invisibleCodePoints(): string[] {
  const out: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    if (DEFAULT_IGNORABLE.test(c) || FORMAT.test(c)) out.push(c);
  }
  return out;
}

const INVISIBLE = invisibleCodePoints();
const invisibleChar = fc.oneof(
  fc.constantFrom(...INVISIBLE.filter((c) => c.codePointAt(0)! < 0xe0000)),
  fc.constantFrom(...INVISIBLE.filter((c) => c.codePointAt(0)! >= 0xe0000)),
);

/** `text` with each character inserted before the code point at its position (modulo the length so far). */
function insertAll(text: string, insertions: readonly (readonly [number, string])[]): string {
  const chars = [...text];
  for (const [at, c] of insertions) chars.splice(at % (chars.length + 1), 0, c);
  return chars.join('');
}

describe('textHash with invisible characters', () => {
  it('is the hash of the clean text', () => {
    expect(textHash('i want to ki\u{E0020}ll myself')).toBe(textHash('i want to kill myself'));
    expect(textHash('you \u200Bare\u2060 an id\u{E0100}iot\uFFF9')).toBe(textHash('you are an idiot'));
    expect(normaliseForHash('\u{13430}caf\u200De\u0301 ')).toBe('café');
  });

  it('equals the clean text hash for any text and any invisible characters inserted anywhere', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(), invisibleChar), { minLength: 1, maxLength: 6 }),
        (text, inserted) => {
          expect(textHash(insertAll(text, inserted))).toBe(textHash(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('still tells different visible texts apart', () => {
    expect(textHash('kill')).not.toBe(textHash('ki ll'));
    expect(textHash('YOU IDIOT')).not.toBe(textHash('you idiot'));
  });
});
