/**
 * Realistic benchmark text for the toxicity transformer: the first `n` distinct Jigsaw rows of the
 * fixed toxicity test split (`splitOf` in training/corpora/toxicity-split.ts), from
 * ../shared/data or --data, optionally only rows of `chars[0]`..`chars[1]` characters. Undefined when
 * the data is not there (or has fewer such rows).
 */
import { preprocess } from '@/lib/moderation/preprocess';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { type RawRow, readCorpora } from '@/training/corpora/toxicity-corpora';
import { splitOf } from '@/training/corpora/toxicity-split';

export function jigsawTestTexts(args: readonly string[], n = 100, chars?: readonly [number, number]): string[] | undefined {
  let rows: RawRow[];
  try {
    rows = readCorpora(resolveDataDir(args));
  } catch {
    return undefined;
  }
  const seen = new Set<string>();
  const texts: string[] = [];
  for (const r of rows) {
    if (!r.corpus.startsWith('jigsaw')) continue;
    if (chars && (r.text.length < chars[0] || r.text.length > chars[1])) continue;
    const clean = preprocess(r.text).clean;
    if (clean.length === 0 || splitOf(clean) !== 'test' || seen.has(clean)) continue;
    seen.add(clean);
    texts.push(r.text);
    if (texts.length === n) break;
  }
  return texts.length === n ? texts : undefined;
}
