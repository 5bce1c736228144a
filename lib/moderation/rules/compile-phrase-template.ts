/**
 * Compile a phrase template (the small language of `lib/moderation/lexicons/threats.json` and
 * `self-harm.json`) into regular-expression source over a `PhraseView`.
 *
 *   word          one word, normalised like the text (`I'll` = `ill`, `kill` = `kiiill`)
 *   #             any number ("5 kms")
 *   a b c         a sequence of words
 *   (a|b c)       alternatives
 *   x?            optional word, group or list
 *   {name}        any entry of the named list (entries are templates themselves)
 *   !x            negative look-ahead: the words that follow must not be x ("!(to me)")
 *   ~             a gap of 0 to `GAP_WORDS` words in the same sentence, none of which starts an
 *                 entry of the lexicon's `gap_stop` list ("{intent} ~ and {harm} {target}" reads
 *                 "I will find where you live and kill you"); never at the start of a template
 *
 * We compile to regular expressions rather than walk tokens by hand because JavaScript's regex
 * engine then does the backtracking. Alongside the source we compute the words a match can
 * start with, so the matcher only tries a phrase where one of them occurs (see `match-phrases.ts`).
 */
import { BOUNDARY_KEY, NUMBER_KEY, phraseKeysOf } from './build-phrase-view';

/** Most words a `~` gap spans: a clause ("find where you live and"), not a paragraph. */
export const GAP_WORDS = 8;
/** The list a lexicon using `~` must define: words a gap may not contain ("not", "never", "if"). */
export const GAP_STOP_LIST = 'gap_stop';

export type PhraseLists = Readonly<Record<string, readonly string[]>>;

export interface CompiledTemplate {
  /** Regular-expression source; every word in it starts with a space. */
  readonly source: string;
  /** The keys a match can start with. */
  readonly firstKeys: ReadonlySet<string>;
}

export class PhraseTemplateError extends Error {
  constructor(template: string, reason: string) {
    super(`Bad phrase template "${template}": ${reason}`);
    this.name = 'PhraseTemplateError';
  }
}

export function compilePhraseTemplate(template: string, lists: PhraseLists): CompiledTemplate {
  const compiled = new TemplateParser(template, lists, new Set()).parseWhole();
  return { source: compiled.source, firstKeys: compiled.first };
}

/**
 * A compiled fragment: its source, the keys it can start with, whether it can match nothing, and
 * whether it can start with any word at all (a leading gap), which the first-key index cannot serve.
 */
interface Fragment {
  source: string;
  first: Set<string>;
  nullable: boolean;
  anyStart?: boolean;
}

const TOKEN = /\s*(\(|\)|\||\?|!|~|\{[a-z_]+\}|[^\s()|?!{}~]+)/y;
// Lists are referenced by many templates; compile each once per lexicon.
const compiledLists = new WeakMap<PhraseLists, Map<string, Fragment>>();

class TemplateParser {
  private readonly tokens: string[] = [];
  private pos = 0;

  constructor(
    private readonly template: string,
    private readonly lists: PhraseLists,
    private readonly expanding: ReadonlySet<string>,
  ) {
    TOKEN.lastIndex = 0;
    while (TOKEN.lastIndex < template.trimEnd().length) {
      const m = TOKEN.exec(template);
      if (!m) throw this.error(`unexpected character at ${TOKEN.lastIndex}`);
      this.tokens.push(m[1]!);
    }
  }

  parseWhole(): Fragment {
    const whole = this.parseAlternatives();
    if (this.pos < this.tokens.length) throw this.error(`unexpected "${this.tokens[this.pos]}"`);
    if (whole.nullable) throw this.error('it can match nothing at all');
    if (whole.anyStart) throw this.error('a gap "~" cannot start it');
    return whole;
  }

  private parseAlternatives(): Fragment {
    const options = [this.parseSequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.parseSequence());
    }
    if (options.length === 1) return options[0]!;
    return {
      source: `(?:${options.map((o) => o.source).join('|')})`,
      first: union(options.map((o) => o.first)),
      nullable: options.some((o) => o.nullable),
      anyStart: options.some((o) => o.anyStart),
    };
  }

  private parseSequence(): Fragment {
    const items: Fragment[] = [];
    while (this.pos < this.tokens.length && this.peek() !== ')' && this.peek() !== '|') items.push(this.parseItem());
    if (items.length === 0) throw this.error('empty sequence');
    const first = new Set<string>();
    let anyStart = false;
    for (const item of items) {
      for (const key of item.first) first.add(key);
      anyStart ||= item.anyStart === true;
      if (!item.nullable) break;
    }
    return { source: items.map((i) => i.source).join(''), first, nullable: items.every((i) => i.nullable), anyStart };
  }

  private parseItem(): Fragment {
    if (this.peek() === '!') {
      this.pos++;
      // The look-ahead must end on a word boundary, or "!(a)" would also refuse "an".
      return { source: `(?!${this.parseAtom().source} )`, first: new Set(), nullable: true };
    }
    const atom = this.parseAtom();
    if (this.peek() === '?') {
      this.pos++;
      return { source: `(?:${atom.source})?`, first: atom.first, nullable: true };
    }
    return atom;
  }

  private parseAtom(): Fragment {
    const token = this.tokens[this.pos++];
    if (token === undefined) throw this.error('ends too early');
    if (token === '(') {
      const inner = this.parseAlternatives();
      if (this.tokens[this.pos++] !== ')') throw this.error('missing ")"');
      return { ...inner, source: `(?:${inner.source})` };
    }
    if (token.startsWith('{')) return this.expandList(token.slice(1, -1));
    if (token === '~') return this.gap();
    if (token === NUMBER_KEY) return { source: ` ${NUMBER_KEY}`, first: new Set([NUMBER_KEY]), nullable: false };
    if (/^[)|?!]$/.test(token)) throw this.error(`unexpected "${token}"`);
    const keys = phraseKeysOf(token);
    if (keys.length === 0) throw this.error(`"${token}" has no letters`);
    return { source: keys.map((key) => ` ${escapeRegExp(key)}`).join(''), first: new Set([keys[0]!]), nullable: false };
  }

  /**
   * Up to GAP_WORDS words, lazily (the shortest gap that lets the rest match), none of them a
   * sentence boundary or the start of a `gap_stop` entry. Bounded, so a pattern stays linear.
   */
  private gap(): Fragment {
    if (!this.lists[GAP_STOP_LIST]) throw this.error(`"~" needs a {${GAP_STOP_LIST}} list`);
    const stop = this.expandList(GAP_STOP_LIST);
    const word = `(?!${stop.source} )(?! ${escapeRegExp(BOUNDARY_KEY)} ) [^ ]+`;
    return { source: `(?:${word}){0,${GAP_WORDS}}?`, first: new Set(), nullable: true, anyStart: true };
  }

  private expandList(name: string): Fragment {
    const entries = this.lists[name];
    if (!entries) throw this.error(`unknown list {${name}}`);
    if (this.expanding.has(name)) throw this.error(`list {${name}} refers to itself`);
    let cache = compiledLists.get(this.lists);
    if (!cache) {
      cache = new Map();
      compiledLists.set(this.lists, cache);
    }
    const cached = cache.get(name);
    if (cached) return cached;

    const inner = new Set(this.expanding).add(name);
    const options = entries.map((entry) => new TemplateParser(entry, this.lists, inner).parseWhole());
    const fragment = {
      source: `(?:${options.map((o) => o.source).join('|')})`,
      first: union(options.map((o) => o.first)),
      nullable: false,
    };
    cache.set(name, fragment);
    return fragment;
  }

  private peek(): string | undefined {
    return this.tokens[this.pos];
  }

  private error(reason: string): PhraseTemplateError {
    return new PhraseTemplateError(this.template, reason);
  }
}

function union(sets: readonly ReadonlySet<string>[]): Set<string> {
  const out = new Set<string>();
  for (const set of sets) for (const key of set) out.add(key);
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
