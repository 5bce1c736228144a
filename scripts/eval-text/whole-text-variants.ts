/**
 * Whole-text obfuscations for the robustness rows of `npm run eval:text`: each rewrites an entire
 * text the way evasive users do. Evaluation-only and deterministic (no randomness), written apart
 * from the training-time augmentations in models/ so the evaluation does not mirror them.
 */
export const VARIANTS = [
  'spaced_letters',
  'dots_between_letters',
  'stretched_vowels',
  'leetspeak',
  'homoglyphs',
  'zero_width',
  'emoji_between_words',
  'html_markup',
  'upper_case',
] as const;
export type Variant = (typeof VARIANTS)[number];

const words = (text: string) => text.split(/\s+/).filter((w) => w.length > 0);
const LETTER = /\p{L}/u;

/** Join the characters of every word with `sep`; words stay separated by `wordSep`. */
function spreadLetters(text: string, sep: string, wordSep: string): string {
  return words(text)
    .map((w) => [...w].join(sep))
    .join(wordSep);
}

const LEET: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
/** Latin letters and the Cyrillic/Greek code points that render the same in most fonts. */
const HOMOGLYPH: Record<string, string> = {
  a: '\u0430',
  c: '\u0441',
  e: '\u0435',
  i: '\u0456',
  j: '\u0458',
  o: '\u043e',
  p: '\u0440',
  s: '\u0455',
  x: '\u0445',
  y: '\u0443',
  A: '\u0391',
  B: '\u0392',
  E: '\u0395',
  H: '\u0397',
  I: '\u0399',
  K: '\u039a',
  M: '\u039c',
  N: '\u039d',
  O: '\u039f',
  P: '\u03a1',
  T: '\u03a4',
  X: '\u03a7',
};
const EMOJI = ['\u{1F602}', '\u{1F525}', '\u{1F44D}', '\u{1F4AF}', '\u{1F621}', '\u{1F440}'];

export function applyVariant(variant: Variant, text: string): string {
  switch (variant) {
    case 'spaced_letters':
      return spreadLetters(text, ' ', '   ');
    case 'dots_between_letters':
      return spreadLetters(text, '.', ' ');
    case 'stretched_vowels':
      return text.replace(/[aeiouAEIOU]/g, (v) => v.repeat(4));
    case 'leetspeak':
      return text.replace(/[a-zA-Z]/g, (c) => LEET[c.toLowerCase()] ?? c);
    case 'homoglyphs':
      return text.replace(/[A-Za-z]/g, (c) => HOMOGLYPH[c] ?? c);
    case 'zero_width':
      // U+200B between every two letters: invisible, but it splits every word for a naive tokenizer.
      return [...text].map((c, i, all) => (LETTER.test(c) && LETTER.test(all[i + 1] ?? '') ? `${c}\u200b` : c)).join('');
    case 'emoji_between_words':
      return words(text)
        .map((w, i) => (i === 0 ? w : `${EMOJI[i % EMOJI.length]} ${w}`))
        .join(' ');
    case 'html_markup':
      return `<div class="comment"><p><b>${text}</b></p></div>`;
    case 'upper_case':
      return text.toUpperCase();
  }
}
