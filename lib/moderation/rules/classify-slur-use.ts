/**
 * Use or mention: is a slur the rules found aimed at someone, or talked about? "You are a
 * faggot" uses the word; "Calling someone a "faggot" is never okay." mentions it. A mention
 * keeps `slur_detected` (the word is there) but gives the slur rule no risk of its own in the
 * ensemble: the models and the context decide (docs/decisions/210-slur-use-and-mention.md).
 *
 * Contexts live in `lib/moderation/lexicons/slur-context.json` as phrase templates read around the
 * slur's words in the phrase view; quotation marks come from the lexical view itself. The order in
 * which the contexts are weighed, and why, is in `lib/moderation/rules/README.md#use-and-mention`.
 */
import slurContext from '@/lib/moderation/lexicons/slur-context.json';
import type { RuleMatch, SlurMention } from '@/lib/moderation/types';
import { BOUNDARY_KEY, keyOfSourceOffset, type PhraseView, phraseKeysOf } from './build-phrase-view';
import { compilePhraseTemplate, type PhraseLists } from './compile-phrase-template';
import { findQuotedPassages, type QuotedPassage, quoteAround } from './find-quoted-passages';

/** Words of the slur's sentence read before it. */
const WINDOW_WORDS = 8;
/** A quotation of at most this many words is a scare quote around a word, not quoted speech. */
const SCARE_QUOTE_WORDS = 2;
/** Words outside a quotation that make it a quotation with commentary, not a message in quotes. */
const UTTERANCE_COMMENT_WORDS = 2;
const SCARE_QUOTE_COMMENT_WORDS = 3;
/** Words that may join two slurs of one list ("words like X and Y"). */
const LIST_JOINERS = new Set(['and', 'or', 'nor']);

type ContextEntry = string | { readonly template: string; readonly only?: readonly string[] };

interface Context {
  readonly re: RegExp;
  /** Phrase keys of the slur spellings it applies to; all when absent. */
  readonly only?: ReadonlySet<string>;
}

/** Classifies the slur matches of one text (lexical-view offsets), in order: undefined = a use. */
export type SlurUseClassifier = (lexical: string, view: PhraseView, slurs: readonly RuleMatch[]) => (SlurMention | undefined)[];

export function createSlurUseClassifier(): SlurUseClassifier {
  const lists: PhraseLists = slurContext.lists;
  const before = (entries: readonly ContextEntry[]) => entries.map((e) => context(e, lists, (s) => new RegExp(`(?:${s}) $`)));
  const after = (entries: readonly ContextEntry[]) => entries.map((e) => context(e, lists, (s) => new RegExp(`^(?:${s})(?= )`)));
  const named = before(slurContext.named_before);
  const namedAfter = after(slurContext.named_after);
  const leadIn = before(slurContext.named_lead_in);
  const reported = before(slurContext.reported_before);
  const reclaimed = before(slurContext.reclaimed_before);
  const aimed = before(slurContext.aimed_before);
  const aimedAfter = after(slurContext.aimed_after);
  const addressed = after(slurContext.addressed_after);

  return (lexical, view, slurs) => {
    const quotes = slurs.length > 0 ? findQuotedPassages(lexical) : [];
    const out: (SlurMention | undefined)[] = [];
    let previous: { last: number; mention: SlurMention | undefined } | undefined;
    for (const slur of slurs) {
      const first = keyOfSourceOffset(view, slur.start);
      const last = Math.max(first, keyOfSourceOffset(view, slur.end - 1));
      const at = new Around(view, first, last);
      const quote = quoteAround(quotes, slur.start, slur.end);
      const slurKey = view.keys[first]!;

      const decide = (): SlurMention | undefined => {
        // "the word X describes you", "I called him a X because he is one": aimed at someone, however it is introduced.
        if (at.after(addressed, slurKey)) return undefined;
        if (at.before(named, slurKey)) return 'named';
        if (previous?.mention && at.joinedTo(previous.last)) return previous.mention;
        const opensSentence = at.first === at.sentenceStart || at.before(leadIn, slurKey);
        if ((opensSentence || quote) && at.after(namedAfter, slurKey)) return 'named';
        const inner = quote ? wordsIn(view, quote) : 0;
        const outside = quote ? countWords(view) - inner : 0;
        if (quote && inner > SCARE_QUOTE_WORDS && outside >= UTTERANCE_COMMENT_WORDS) return 'quoted';
        const aimedAfterIt = at.after(aimedAfter, slurKey);
        const aimedAt = aimedAfterIt || at.before(aimed, slurKey) || isVocative(lexical, slur);
        if (!aimedAt && at.before(reported, slurKey)) return 'reported';
        if (!aimedAfterIt && at.before(reclaimed, slurKey)) return 'reclaimed';
        if (aimedAt) return undefined;
        if (quote && outside >= SCARE_QUOTE_COMMENT_WORDS && !at.endsSentence()) return 'quoted';
        return undefined;
      };
      const mention = decide();
      out.push(mention);
      previous = { last, mention };
    }
    return out;
  };
}

function context(entry: ContextEntry, lists: PhraseLists, compile: (source: string) => RegExp): Context {
  const { template, only } = typeof entry === 'string' ? { template: entry, only: undefined } : entry;
  const re = compile(compilePhraseTemplate(template, lists).source);
  return only ? { re, only: new Set(only.flatMap((w) => phraseKeysOf(w))) } : { re };
}

/** The words of the slur's sentence around it, as phrase-view text. */
class Around {
  readonly sentenceStart: number;
  private readonly sentenceEnd: number;

  constructor(
    private readonly view: PhraseView,
    readonly first: number,
    private readonly last: number,
  ) {
    let s = first;
    while (s > 0 && view.keys[s - 1] !== BOUNDARY_KEY) s--;
    let e = last + 1;
    while (e < view.keys.length && view.keys[e] !== BOUNDARY_KEY) e++;
    this.sentenceStart = s;
    this.sentenceEnd = e;
  }

  /** Whether a context ends on the word just before the slur. */
  before(contexts: readonly Context[], slurKey: string): boolean {
    if (this.first === this.sentenceStart) return false;
    const from = Math.max(this.sentenceStart, this.first - WINDOW_WORDS);
    const text = this.view.text.slice(this.view.keyStart[from]! - 1, this.view.keyStart[this.first]!);
    return contexts.some((c) => applies(c, slurKey) && c.re.test(text));
  }

  /** Whether a context starts on the word just after the slur. */
  after(contexts: readonly Context[], slurKey: string): boolean {
    if (this.last + 1 >= this.sentenceEnd) return false;
    const { keyStart, keys, text } = this.view;
    const end = this.sentenceEnd < keys.length ? keyStart[this.sentenceEnd]! - 1 : text.length;
    const rest = text.slice(keyStart[this.last]! + keys[this.last]!.length, end + 1);
    return contexts.some((c) => applies(c, slurKey) && c.re.test(rest));
  }

  /** Whether only list joiners ("and", "or") stand between an earlier slur of this sentence and this one. */
  joinedTo(previousLast: number): boolean {
    if (previousLast < this.sentenceStart || previousLast >= this.first) return false;
    for (let k = previousLast + 1; k < this.first; k++) if (!LIST_JOINERS.has(this.view.keys[k]!)) return false;
    return true;
  }

  endsSentence(): boolean {
    return this.last + 1 >= this.sentenceEnd;
  }
}

function applies(c: Context, slurKey: string): boolean {
  return !c.only || c.only.has(slurKey);
}

function countWords(view: PhraseView): number {
  return view.keys.filter((k) => k !== BOUNDARY_KEY).length;
}

function wordsIn(view: PhraseView, quote: QuotedPassage): number {
  let n = 0;
  for (let k = 0; k < view.keys.length; k++) {
    if (view.keys[k] !== BOUNDARY_KEY && view.sourceStart[k]! >= quote.innerStart && view.sourceEnd[k]! <= quote.innerEnd) n++;
  }
  return n;
}

const QUOTE_OR_SPACE = /[\s"“”„‟«»‹›「」『』〝〞＂'‘’‚‛`]/u;

/** "shut up, faggot." or "faggot, go away": the slur set off by a comma as a form of address. */
function isVocative(lexical: string, slur: RuleMatch): boolean {
  let b = slur.start - 1;
  while (b >= 0 && QUOTE_OR_SPACE.test(lexical[b]!)) b--;
  let a = wordEnd(lexical, slur.end);
  while (a < lexical.length && QUOTE_OR_SPACE.test(lexical[a]!)) a++;
  const ends = (ch: string | undefined) => ch === undefined || /[.!?,;:]/.test(ch);
  return (lexical[b] === ',' && ends(lexical[a])) || (b < 0 && lexical[a] === ',');
}

/** The end of the word a match ends in ("fag" of "faggots" ends where "faggots" does). */
function wordEnd(text: string, end: number): number {
  let k = end;
  while (k < text.length && /[\p{L}\p{M}]/u.test(text[k]!)) k++;
  return k;
}
