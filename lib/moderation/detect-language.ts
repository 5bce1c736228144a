/**
 * Which language a text is in, so the console can say when the models (trained on English) are
 * reading something else. franc-min (trigram profiles of 82 languages) is pinned in package.json.
 * Short texts carry too few trigrams to tell languages apart ("Women deserve equal pay." scores as
 * Spanish, "Go kill yourself" as Hmong), so below `minLetters`, or when English scores close to
 * the best, the text counts as English. The rule was chosen on English rows of the training and
 * validation corpora (`npx tsx scripts/measure-language-warning.ts`, figures in docs/console.md).
 */
import { francAll } from 'franc-min';

export interface LanguageGuess {
  /** ISO 639-3 code (`eng`, `spa`, `deu`, ...), or `und` when the text is too short to tell. */
  code: string;
  /** Whether the text looks like something other than English. */
  non_english: boolean;
}

export interface LanguageRule {
  /** Letters a text needs before its language is guessed at all. */
  minLetters: number;
  /**
   * English within this fraction of the best language's score is not flagged (franc's scores are
   * relative, best = 1). English sentences with names or numbers score 0.85-0.99 against a "best"
   * of Tagalog or Swahili; Spanish, German and French sentences give English 0.45-0.66.
   */
  englishMargin: number;
  /** Texts with fewer letters than this need English further behind: `shortMargin` instead of `englishMargin`. */
  shortLetters: number;
  shortMargin: number;
}

export const LANGUAGE_RULE: LanguageRule = { minLetters: 40, englishMargin: 0.75, shortLetters: 60, shortMargin: 0.7 };

/** The guess from franc's ranking (best first, scores relative to the best) and the text's letter count. */
export function guessFromRanking(ranked: readonly (readonly [string, number])[], letters: number, rule: LanguageRule): LanguageGuess {
  if (letters < rule.minLetters) return { code: 'und', non_english: false };
  const [best, bestScore] = ranked[0] ?? ['und', 0];
  if (best === 'und' || best === 'eng') return { code: best, non_english: false };
  const english = ranked.find(([code]) => code === 'eng')?.[1] ?? 0;
  const margin = letters < rule.shortLetters ? rule.shortMargin : rule.englishMargin;
  // Close enough to the best: read as English, and reported so (not as the noisy first guess).
  if (english >= margin * bestScore) return { code: 'eng', non_english: false };
  return { code: best, non_english: true };
}

export const letterCount = (text: string) => (text.match(/\p{L}/gu) ?? []).length;

export function detectLanguage(text: string, rule: LanguageRule = LANGUAGE_RULE): LanguageGuess {
  const letters = letterCount(text);
  if (letters < rule.minLetters) return { code: 'und', non_english: false };
  return guessFromRanking(francAll(text, { minLength: rule.minLetters }), letters, rule);
}
