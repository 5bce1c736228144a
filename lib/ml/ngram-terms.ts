/**
 * The terms of a document for each analyzer, after scikit-learn's `word`, `char_wb` and `char`
 * analyzers: word n-grams over the token pattern, character n-grams inside padded words, and
 * character n-grams across the whole text, counting code points (an emoji is one character).
 */

/** sklearn's default `\b\w\w+\b`: runs of two or more word characters. */
export const DEFAULT_TOKEN_PATTERN = '[\\p{L}\\p{N}\\p{M}_]{2,}';

export type Analyzer =
  | { kind: 'word'; ngramRange: readonly [number, number]; tokenPattern?: string }
  /** Character n-grams inside each whitespace-separated word padded with one space each side. */
  | { kind: 'char_wb'; ngramRange: readonly [number, number] }
  /** Character n-grams over the whole text, across word boundaries. */
  | { kind: 'char'; ngramRange: readonly [number, number] };

type Emit = (term: string) => void;
export type TermGenerator = (doc: string, emit: Emit) => void;

const SURROGATE = /[\uD800-\uDFFF]/;

/** Build the function that lists a document's terms (with repeats), for one analyzer. */
export function termGenerator(analyzer: Analyzer): TermGenerator {
  const [lo, hi] = analyzer.ngramRange;
  if (analyzer.kind === 'word') {
    const re = new RegExp(analyzer.tokenPattern ?? DEFAULT_TOKEN_PATTERN, 'gu');
    return (doc, emit) => {
      const tokens = doc.match(re) ?? [];
      const nt = tokens.length;
      for (let n = lo; n <= hi; n++) {
        for (let i = 0; i + n <= nt; i++) {
          let t = tokens[i] as string;
          for (let k = 1; k < n; k++) t += ` ${tokens[i + k] as string}`;
          emit(t);
        }
      }
    };
  }
  if (analyzer.kind === 'char_wb') {
    return (doc, emit) => {
      for (const word of doc.split(/\s+/u)) {
        if (word.length === 0) continue;
        emitCharWb(` ${word} `, lo, hi, emit);
      }
    };
  }
  return (doc, emit) => {
    const text = doc.replace(/\s+/gu, ' ');
    if (!SURROGATE.test(text)) {
      for (let n = lo; n <= hi; n++) for (let i = 0; i + n <= text.length; i++) emit(text.slice(i, i + n));
      return;
    }
    const cps = Array.from(text);
    for (let n = lo; n <= hi; n++) for (let i = 0; i + n <= cps.length; i++) emit(cps.slice(i, i + n).join(''));
  };
}

/** sklearn `_char_wb_ngrams` on one padded word, counting code points (an emoji is one character). */
function emitCharWb(w: string, lo: number, hi: number, emit: Emit): void {
  if (!SURROGATE.test(w)) {
    const len = w.length;
    for (let n = lo; n <= hi; n++) {
      // A word shorter than n yields itself once, and longer n-grams would repeat it: stop.
      if (len <= n) {
        emit(w);
        break;
      }
      for (let i = 0; i + n <= len; i++) emit(w.slice(i, i + n));
    }
    return;
  }
  const cps = Array.from(w);
  const len = cps.length;
  for (let n = lo; n <= hi; n++) {
    if (len <= n) {
      emit(w);
      break;
    }
    for (let i = 0; i + n <= len; i++) emit(cps.slice(i, i + n).join(''));
  }
}
