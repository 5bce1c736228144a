/**
 * Slurs and profanity: one scan of the lexical view for every pattern of obscenity's English
 * dataset and our curated lists, each hit sorted into `slur_detected` or `profanity_flag` by the
 * word it belongs to.
 *
 * From obscenity we take the maintained data: its English patterns (with word boundaries), its
 * Scunthorpe whitelist, its pattern parser and its collapse thresholds. Its words are split by
 * `lib/moderation/lexicons/obscenity-terms.json`; `slurs.json`, `profanity.json` and `allow-list.json`
 * extend it. Its `RegExpMatcher` we do not use, for two reasons:
 * - speed: it runs one regular expression per pattern (about 230 scans of the text) and rebuilds
 *   the text through per-character transformer callbacks twice per call; one alternation over all
 *   patterns does the same work in one scan, about ten times faster;
 * - its whitelist is matched before duplicate letters are collapsed, so a whitelisted span and the
 *   collapsed match it should cover disagree ("trafficked" hits `f?ck` over "ffick" while the
 *   whitelisted "fick" is one letter shorter). We collapse the text, the patterns and the
 *   whitelist alike and compare like with like.
 * Its confusable and leetspeak transformers are not needed: `preprocess` and `foldLexical` did
 * that work already, with context obscenity lacks (its leet map turns "ass!" into "assi").
 */
import { DataSet, type ParsedPattern, SyntaxKind, englishDataset, parseRawPattern } from 'obscenity';
import allowList from '@/lib/moderation/lexicons/allow-list.json';
import obscenityTerms from '@/lib/moderation/lexicons/obscenity-terms.json';
import profanity from '@/lib/moderation/lexicons/profanity.json';
import slurs from '@/lib/moderation/lexicons/slurs.json';
import type { RuleFlag, RuleMatch } from '@/lib/moderation/types';

/** Offsets of the returned matches index the lexical text passed in. */
export type OffensiveWordDetector = (lexical: string) => RuleMatch[];

type WordFlag = Extract<RuleFlag, 'slur_detected' | 'profanity_flag'>;
interface WordMetadata {
  originalWord: string;
}
interface CuratedTerm {
  term: string;
  patterns: readonly string[];
}

// obscenity's englishRecommendedBlacklistMatcherTransformers collapse every run of a character
// to one, except these letters, which its patterns spell doubled where words do ("ass",
// "nigger", "boonga"). Spaces collapse too, as in its whitelist transformers.
const COLLAPSE_THRESHOLDS: ReadonlyMap<string, number> = new Map([
  ['b', 2],
  ['e', 2],
  ['o', 2],
  ['l', 2],
  ['s', 2],
  ['g', 2],
]);

export function createOffensiveWordDetector(): OffensiveWordDetector {
  const flagOfWord = buildFlagIndex();
  const replaced = new Set<string>(obscenityTerms.replaced);
  const dataset = new DataSet<WordMetadata>().addAll(englishDataset).removePhrasesIf((phrase) => {
    const word = phrase.metadata?.originalWord ?? '';
    return !flagOfWord.has(word) || replaced.has(word);
  });
  addCurated(dataset, slurs.terms);
  addCurated(dataset, profanity.terms);

  const { blacklistedTerms = [], whitelistedTerms = [] } = dataset.build();
  // Capture group k + 1 of `blacklist` is pattern k; `words[k]` is the word it stands for.
  const words = blacklistedTerms.map(
    ({ id }) =>
      dataset.getPayloadWithPhraseMetadata({ termId: id, startIndex: 0, endIndex: 0, matchLength: 0 }).phraseMetadata?.originalWord ?? '',
  );
  const blacklist = new RegExp(blacklistedTerms.map(({ pattern }) => `(${toRegExpSource(pattern)})`).join('|'), 'gs');
  // Longest first: where two whitelisted terms start together, the longer one covers more.
  const whitelist = new RegExp(
    [...whitelistedTerms, ...allowList.terms.map((t) => t.text)]
      .map((term) => collapseRepeats(term).text)
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );

  return (lexical) => {
    const { text, origin } = collapseRepeats(lexical);
    const matches: RuleMatch[] = [];
    let allowed: [number, number][] | undefined;
    blacklist.lastIndex = 0;
    for (let m = blacklist.exec(text); m; m = blacklist.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      // Resume one character later, not after the match: another word may overlap this one.
      blacklist.lastIndex = start + 1;
      allowed ??= findAll(whitelist, text);
      if (allowed.some(([s, e]) => s <= start && end <= e)) continue;
      const word = words[firstGroup(m)] ?? '';
      matches.push({ flag: flagOfWord.get(word) ?? 'profanity_flag', term: word, start: origin[start]!, end: origin[end]! });
    }
    return dropRedundant(matches);
  };
}

/** Word -> flag for every obscenity word we keep and every curated term. */
function buildFlagIndex(): Map<string, WordFlag> {
  const index = new Map<string, WordFlag>();
  for (const word of obscenityTerms.slur) index.set(word, 'slur_detected');
  for (const word of obscenityTerms.profanity) index.set(word, 'profanity_flag');
  for (const { term } of slurs.terms) index.set(term, 'slur_detected');
  for (const { term } of profanity.terms) index.set(term, 'profanity_flag');
  return index;
}

function addCurated(dataset: DataSet<WordMetadata>, terms: readonly CuratedTerm[]): void {
  for (const { term, patterns } of terms) {
    dataset.addPhrase((phrase) => {
      phrase.setMetadata({ originalWord: term });
      for (const raw of patterns) phrase.addPattern(collapseLiterals(parseRawPattern(raw)));
      return phrase;
    });
  }
}

/**
 * Collapse letter runs inside a pattern the way the text is collapsed, so curators can write
 * "pickaninny" and "jizz" instead of the collapsed "pickaniny" and "jiz" (obscenity's own `jizz`
 * pattern can never match for exactly this reason).
 */
function collapseLiterals(pattern: ParsedPattern): ParsedPattern {
  const collapse = (chars: readonly number[]) => [...collapseRepeats(String.fromCodePoint(...chars)).text].map((c) => c.codePointAt(0)!);
  const nodes = pattern.nodes.map((node) => {
    if (node.kind === SyntaxKind.Literal) return { ...node, chars: collapse(node.chars) };
    if (node.kind === SyntaxKind.Optional && node.childNode.kind === SyntaxKind.Literal) {
      return { ...node, childNode: { ...node.childNode, chars: collapse(node.childNode.chars) } };
    }
    return node;
  });
  return { ...pattern, nodes };
}

/**
 * Collapse runs of a character to its threshold (one, or two for the letters listed above).
 * `origin[k]` is the index in `text`'s source of collapsed character k; `origin[length]` is the
 * source length, so `origin[end]` of a match also covers duplicates dropped after its last letter.
 */
function collapseRepeats(source: string): { text: string; origin: number[] } {
  let text = '';
  const origin: number[] = [];
  let run = 0;
  for (let k = 0; k < source.length; k++) {
    const ch = source[k]!;
    run = k > 0 && ch === source[k - 1] ? run + 1 : 1;
    if (run > 1 && run > (COLLAPSE_THRESHOLDS.get(ch) ?? 1)) continue;
    text += ch;
    origin.push(k);
  }
  origin.push(source.length);
  return { text, origin };
}

/** Regular-expression source of an obscenity pattern, as obscenity's own compiler writes it. */
function toRegExpSource(pattern: ParsedPattern): string {
  let source = pattern.requireWordBoundaryAtStart ? '\\b' : '';
  for (const node of pattern.nodes) {
    if (node.kind === SyntaxKind.Optional) source += `(?:${nodeSource(node.childNode)})?`;
    else source += nodeSource(node);
  }
  return source + (pattern.requireWordBoundaryAtEnd ? '\\b' : '');
}

function nodeSource(node: ParsedPattern['nodes'][number]): string {
  if (node.kind === SyntaxKind.Literal) return escapeRegExp(String.fromCodePoint(...node.chars));
  if (node.kind === SyntaxKind.Wildcard) return '.';
  return '';
}

/** Every occurrence of `re` (overlapping ones included) as `[start, end)`. */
function findAll(re: RegExp, text: string): [number, number][] {
  const found: [number, number][] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    found.push([m.index, m.index + m[0].length]);
    re.lastIndex = m.index + 1;
  }
  return found;
}

/** Index of the first capture group that took part in the match. */
function firstGroup(m: RegExpExecArray): number {
  for (let k = 1; k < m.length; k++) if (m[k] !== undefined) return k - 1;
  return -1;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * One hit per word occurrence: several patterns of a word often match the same span ("shit"
 * matches both `|shit` and `shit|`), and a shorter hit inside a longer one of the same word adds
 * nothing to a highlight.
 */
function dropRedundant(matches: RuleMatch[]): RuleMatch[] {
  // Sorted by start, longest first, a hit is covered exactly when an earlier hit of the same word
  // reaches at least as far: tracking the furthest end per word is enough.
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const furthestEnd = new Map<string, number>();
  const kept: RuleMatch[] = [];
  for (const m of matches) {
    if ((furthestEnd.get(m.term) ?? -1) >= m.end) continue;
    furthestEnd.set(m.term, m.end);
    kept.push(m);
  }
  return kept;
}
