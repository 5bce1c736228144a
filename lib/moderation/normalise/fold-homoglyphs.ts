/**
 * Fold look-alike characters to the Latin letters they imitate: Cyrillic "і", Greek "ι" and "ο",
 * dotless "ı", "ü", "ŀ" (which NFKC writes "l·"), a combining mark placed on a letter ("ki̲ll"),
 * and the capital "I" and "|" that stand for "l" in an otherwise lowercase word ("kiII", "ki||").
 * Each non-ASCII character reads as `confusable-letters.ts` says (UTS #39 confusables, marks
 * removed); a vertical stroke that may be "i" or "l" is read as whichever makes a known word.
 *
 * Only where the text is Latin-script: in a Russian or Greek sentence folding would turn real
 * words into gibberish, so there only a word that already holds a Latin letter ("kιll" in a Greek
 * sentence, "idіot" with a Cyrillic і) is folded. Case is kept; characters that read as no Latin
 * letter (CJK, emoji) are kept as they are, and so are the marks on them. The pronoun "I" and a
 * "||" between words are never letters of a word, so they are left alone; a capital "I" or "|"
 * inside a word changes only when the word is unknown as written and known when read with "l" or "i".
 */
import { isStroke, latinReading, STROKE_READINGS } from './confusable-letters';
import { applyEdits, type Edit } from './text-edits';
import { MAX_WORD_LENGTH, vocabulary } from './vocabulary';

const LATIN = /\p{Script=Latin}/u;
const LETTER = /\p{L}/gu;
const LATIN_G = /\p{Script=Latin}/gu;
const NON_ASCII = /[^\x00-\x7F]/;
const WORD = /[^\s]+/gu;
// An ASCII "I" or "|" touching a lowercase letter: the only ASCII text this step may change.
const ASCII_STROKE_IN_WORD = /[a-z][I|]|[I|][a-z]/;
const ALNUM = /^[A-Za-z0-9]*$/;
const LATIN_END = /[A-Za-z0-9]$/;
const MARK = /^\p{M}$/u;
const ASCII_LETTER_AT_END = /[A-Za-z]$/;
const ASCII_LETTER_AT_START = /^[A-Za-z]/;
const UPPER = /[A-Z]/;
const LOWER = /[a-z]/;
const MIDDLE_DOT = '\u00B7';
// A word must be at least this common to be a reading (as for leetspeak).
const MIN_COUNT = 5;
// Beyond this many strokes in one word the readings (2^strokes) are not enumerated.
const MAX_STROKES = 6;

export function homoglyphEdits(text: string): Edit[] {
  const nonAscii = NON_ASCII.test(text);
  if (!nonAscii && !ASCII_STROKE_IN_WORD.test(text)) return [];
  const mostlyLatin = !nonAscii || isMostlyLatin(text);
  const edits: Edit[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (!NON_ASCII.test(word) && !ASCII_STROKE_IN_WORD.test(word)) continue;
    if (!mostlyLatin && !LATIN.test(word)) continue;
    for (const slot of readWord(word)) {
      if (slot.read !== slot.source) edits.push({ start: m.index + slot.at, end: m.index + slot.at + slot.source.length, text: slot.read });
    }
  }
  return edits;
}

export function foldHomoglyphs(text: string): string {
  return applyEdits(text, homoglyphEdits(text)).text;
}

function isMostlyLatin(text: string): boolean {
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters === 0) return false;
  return (text.match(LATIN_G)?.length ?? 0) / letters >= 0.5;
}

/** One code point of a word and what it reads as. */
interface Slot {
  readonly at: number;
  readonly source: string;
  read: string;
  /** A vertical stroke: "i" or "l", decided with the word around it. */
  stroke: boolean;
}

function readWord(word: string): Slot[] {
  const slots: Slot[] = [];
  let at = 0;
  let afterLatin = false;
  for (const ch of word) {
    const slot = readChar(ch, at, afterLatin);
    slots.push(slot);
    if (!MARK.test(ch)) afterLatin = slot.stroke || LATIN_END.test(slot.read);
    at += ch.length;
  }
  // "ŀ" is "l·" after NFKC: a middle dot between two letters joins them.
  slots.forEach((slot, k) => {
    if (slot.source !== MIDDLE_DOT) return;
    const before = slots[k - 1]?.read ?? '';
    const after = slots[k + 1]?.read ?? '';
    if (ASCII_LETTER_AT_END.test(before) && ASCII_LETTER_AT_START.test(after)) slot.read = '';
  });
  for (const token of tokens(slots)) resolveStrokes(token);
  return slots;
}

/** `afterLatin`: the last character before `ch` that is not a combining mark reads as Latin. */
function readChar(ch: string, at: number, afterLatin: boolean): Slot {
  if (ch === '|' || ch === 'I') return { at, source: ch, read: ch, stroke: true };
  if (ch.charCodeAt(0) < 0x80) return { at, source: ch, read: ch, stroke: false };
  const read = latinReading(ch);
  // A combining mark goes only where it sits on a letter or digit read as Latin ("ki̲ll", "é").
  if (read === undefined || (read === '' && !afterLatin)) return { at, source: ch, read: ch, stroke: false };
  return { at, source: ch, read, stroke: isStroke(read) };
}

/** Runs of slots that read as letters, digits or strokes (a word without its punctuation). */
function* tokens(slots: Slot[]): Generator<Slot[]> {
  let run: Slot[] = [];
  for (const slot of slots) {
    if (slot.stroke || ALNUM.test(slot.read)) run.push(slot);
    else {
      if (run.length > 0) yield run;
      run = [];
    }
  }
  if (run.length > 0) yield run;
}

function resolveStrokes(token: Slot[]): void {
  const letters = token
    .filter((s) => !s.stroke)
    .map((s) => s.read)
    .join('');
  // ASCII "I" is a stroke only inside an otherwise lowercase word ("kiII", not "WIFI" or "II").
  const lowercaseWord =
    LOWER.test(letters) &&
    !UPPER.test(
      token
        .slice(1)
        .filter((s) => !s.stroke)
        .map((s) => s.read)
        .join(''),
    );
  for (const s of token) if (s.source === 'I' && !lowercaseWord) s.stroke = false;
  // "|" among no letters ("||") is an operator or a divider, not a letter.
  const strokes = token.filter((s) => s.stroke && (s.source !== '|' || letters.length > 0));
  if (strokes.length === 0) return;
  const vocab = vocabulary();
  const asWritten = token.map((s) => s.read).join('');
  if (asWritten.length > MAX_WORD_LENGTH || strokes.length > MAX_STROKES || vocab.count(asWritten.toLowerCase()) >= MIN_COUNT) return;
  const upper = !lowercaseWord && UPPER.test(letters) && !LOWER.test(letters);
  let best: string[] | undefined;
  let bestCount = MIN_COUNT - 1;
  for (let mask = 0; mask < 1 << strokes.length; mask++) {
    const reading = strokes.map((_, k) => STROKE_READINGS[(mask >> k) & 1]!);
    let r = 0;
    const word = token.map((s) => (strokes.includes(s) ? reading[r++]! : s.read)).join('');
    const count = vocab.count(word.toLowerCase());
    if (count > bestCount) {
      best = reading;
      bestCount = count;
    }
  }
  if (best === undefined) return;
  strokes.forEach((s, k) => {
    const letter = best[k]!;
    // A stroke alone is the pronoun.
    s.read = upper || (token.length === 1 && letter === 'i') ? letter.toUpperCase() : letter;
  });
}
