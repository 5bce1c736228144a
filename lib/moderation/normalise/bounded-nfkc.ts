/**
 * NFKC with a bound on growth. NFKC maps compatibility characters to their plain form (fullwidth
 * "ｉｄｉｏｔ", mathematical bold "𝐟𝐮𝐜𝐤", ligatures), which is what lets every later step see plain
 * letters. A few code points expand a lot: U+FDFA (an Arabic honorific ligature) becomes 18
 * characters and U+FDFB 8, so 10,000 of them would become 180,000. Those code points (every one
 * whose NFKC form is longer than `MAX_NFKC_EXPANSION` UTF-16 units per unit, a unit test
 * enumerates all of Unicode to prove the set complete) are kept as they are; everything else is
 * normalised. Hence `boundedNfkc(s).length <= MAX_NFKC_EXPANSION * s.length` for every string.
 */
export const MAX_NFKC_EXPANSION = 6;

/** The code points whose NFKC form exceeds the bound (U+FDFA, U+FDFB). */
export const OVER_EXPANDING = /[\uFDFA\uFDFB]/;
const OVER_EXPANDING_G = /[\uFDFA\uFDFB]/g;

export function boundedNfkc(text: string): string {
  if (!OVER_EXPANDING.test(text)) return text.normalize('NFKC');
  // Normalise the pieces between the kept code points. NFKC can only compose across a boundary
  // with combining marks that follow, and these two ligatures compose with none.
  let out = '';
  let at = 0;
  for (const m of text.matchAll(OVER_EXPANDING_G)) {
    out += text.slice(at, m.index).normalize('NFKC') + m[0];
    at = m.index + 1;
  }
  return out + text.slice(at).normalize('NFKC');
}
