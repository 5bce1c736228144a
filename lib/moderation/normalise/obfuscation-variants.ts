/**
 * Whole-text obfuscations for the normaliser's evaluation (`npm run eval:obfuscation`) and its
 * benign-text tests: each rewrites every word of a sentence the way people dodge filters. They are
 * deterministic, so a run can be repeated and compared.
 */
export type Variant = (text: string) => string;

const HOMOGLYPHS: Readonly<Record<string, string>> = { a: 'а', e: 'е', o: 'о', i: 'і', c: 'с', p: 'р', x: 'х', y: 'у' };
const LEET: Readonly<Record<string, string>> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const EMOJI = ['🤡', '🔥', '😂', '💀', '👉', '🙄'];
const words = (text: string) => text.split(/\s+/).filter(Boolean);
const spreadLetters = (word: string, sep: string) => [...word].join(sep);

export const VARIANTS: Readonly<Record<string, Variant>> = {
  plain: (t) => t,
  'zero-width': (t) =>
    words(t)
      .map((w) => spreadLetters(w, '\u200B'))
      .join(' '),
  homoglyphs: (t) => [...t].map((ch) => HOMOGLYPHS[ch] ?? ch).join(''),
  caps: (t) => t.toUpperCase(),
  leetspeak: (t) => [...t].map((ch) => LEET[ch.toLowerCase()] ?? ch).join(''),
  'emoji between words': (t) =>
    words(t)
      .map((w, k) => (k === 0 ? w : `${EMOJI[k % EMOJI.length]} ${w}`))
      .join(' '),
  'stretched vowels x3': (t) => t.replace(/[aeiou]/gi, (v) => v.repeat(3)),
  'spaced letters': (t) =>
    words(t)
      .map((w) => spreadLetters(w, ' '))
      .join('   '),
  'spaced letters, no word gaps': (t) =>
    words(t)
      .map((w) => spreadLetters(w, ' '))
      .join(' '),
  'dots between letters': (t) =>
    words(t)
      .map((w) => spreadLetters(w, '.'))
      .join(' '),
  'mixed separators': (t) =>
    words(t)
      .map((w) => [...w].map((ch, k) => (k === 0 ? ch : `${'-_/.'[k % 4]}${ch}`)).join(''))
      .join(' '),
  'HTML wrapping': (t) =>
    `<div><img src="x.png" onerror="alert(1)"> ${words(t)
      .map((w) => `<span>${w}</span>`)
      .join(' ')} <script>var a = "<b>";</script></div>`,
};
