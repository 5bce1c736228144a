/**
 * Which language a text is in, so the console can say when the models (trained on English) are
 * reading something else. franc-min (trigram profiles of 82 languages) is pinned in package.json.
 * Short texts carry too few trigrams to tell languages apart ("I will find you" scores as Hmong),
 * so below MIN_LETTERS, or when English scores close to the best, the text counts as English.
 * Measured on the sentences in detect-language.test.ts.
 */
import { francAll } from 'franc-min';

export interface LanguageGuess {
  /** ISO 639-3 code (`eng`, `spa`, `deu`, ...), or `und` when the text is too short to tell. */
  code: string;
  /** Whether the text looks like something other than English. */
  non_english: boolean;
}

const MIN_LETTERS = 20;
/**
 * English within this fraction of the best language's score is not flagged (franc's scores are
 * relative, best = 1). English sentences with names or numbers score 0.85-0.99 against a "best"
 * of Tagalog or Swahili; Spanish, German and French sentences give English 0.45-0.66.
 */
const ENGLISH_MARGIN = 0.75;

export function detectLanguage(text: string): LanguageGuess {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  if (letters < MIN_LETTERS) return { code: 'und', non_english: false };
  const ranked = francAll(text, { minLength: MIN_LETTERS });
  const [best, bestScore] = ranked[0] ?? ['und', 0];
  if (best === 'und' || best === 'eng') return { code: best, non_english: false };
  const english = ranked.find(([code]) => code === 'eng')?.[1] ?? 0;
  // Close enough to the best: read as English, and reported so (not as the noisy first guess).
  if (english >= ENGLISH_MARGIN * bestScore) return { code: 'eng', non_english: false };
  return { code: best, non_english: true };
}
