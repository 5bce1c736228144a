/**
 * Find the phrases of one lexicon (threats or self-harm) in a `PhraseView`.
 *
 * A lexicon is a set of named lists and patterns; see `compile-phrase-template.ts` for the
 * template language and `lib/moderation/rules/README.md` for how to extend one.
 *
 * Each pattern is tried only at the words it can start with (an index built once), as a sticky
 * regular expression anchored there. Scanning the whole text with every pattern, or with one
 * alternation of all of them, costs far more: most words start no phrase at all.
 */
import type { RuleFlag, RuleMatch } from '@/lib/moderation/types';
import { type PhraseView, keyIndexAt } from './build-phrase-view';
import { type PhraseLists, compilePhraseTemplate } from './compile-phrase-template';

export interface PhrasePattern {
  /** Stable id, reported as `RuleMatch.term`. */
  readonly id: string;
  readonly template: string;
  /** Suppress the match when this template occurs in the few words just before it ("don't"). */
  readonly unless_after?: string;
}

export interface PhraseLexicon {
  readonly lists: PhraseLists;
  readonly patterns: readonly PhrasePattern[];
}

/** Offsets of the returned matches index the lexical view the phrase view was built from. */
export type PhraseMatcher = (view: PhraseView) => RuleMatch[];

// How far back `unless_after` looks: enough for "I don't really want to", short enough not to
// reach into the previous sentence.
const GUARD_WINDOW_WORDS = 3;

interface CompiledPattern {
  readonly id: string;
  /** Sticky: matches exactly at `lastIndex`, the space before a candidate first word. */
  readonly phrase: RegExp;
  readonly guard: RegExp | null;
}

export function createPhraseMatcher(flag: RuleFlag, lexicon: PhraseLexicon): PhraseMatcher {
  const byFirstKey = new Map<string, CompiledPattern[]>();
  for (const pattern of lexicon.patterns) {
    const { compiled, firstKeys } = compilePattern(pattern, lexicon.lists);
    for (const key of firstKeys) {
      const list = byFirstKey.get(key);
      if (list) list.push(compiled);
      else byFirstKey.set(key, [compiled]);
    }
  }

  return (view) => {
    const matches: RuleMatch[] = [];
    // Per pattern id, the last word already reported: "just go die" should not also report "go die".
    const reportedUntil = new Map<string, number>();
    for (let first = 0; first < view.keys.length; first++) {
      const candidates = byFirstKey.get(view.keys[first]!);
      if (!candidates) continue;
      for (const pattern of candidates) {
        if ((reportedUntil.get(pattern.id) ?? -1) >= first) continue;
        pattern.phrase.lastIndex = view.keyStart[first]! - 1;
        const m = pattern.phrase.exec(view.text);
        if (!m) continue;
        if (pattern.guard && isGuarded(view, first, pattern.guard)) continue;
        const last = keyIndexAt(view, m.index + m[0].length - 1);
        reportedUntil.set(pattern.id, last);
        matches.push({ flag, term: pattern.id, start: view.sourceStart[first]!, end: view.sourceEnd[last]! });
      }
    }
    return matches;
  };
}

function compilePattern(pattern: PhrasePattern, lists: PhraseLists): { compiled: CompiledPattern; firstKeys: ReadonlySet<string> } {
  const { source, firstKeys } = compilePhraseTemplate(pattern.template, lists);
  const guard = pattern.unless_after ? new RegExp(`${compilePhraseTemplate(pattern.unless_after, lists).source} `) : null;
  return { compiled: { id: pattern.id, phrase: new RegExp(`${source}(?= )`, 'y'), guard }, firstKeys };
}

function isGuarded(view: PhraseView, firstKey: number, guard: RegExp): boolean {
  if (firstKey === 0) return false;
  const from = view.keyStart[Math.max(0, firstKey - GUARD_WINDOW_WORDS)]! - 1;
  const to = view.keyStart[firstKey]!;
  return guard.test(view.text.slice(from, to));
}
