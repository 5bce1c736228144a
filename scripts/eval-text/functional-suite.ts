/**
 * The functional suite of `npm run eval:text`: hand-written frames and slot fillers in
 * functional-suite.json, expanded deterministically (file order: category, frame, group or filler)
 * into labelled test cases. Evaluation only: nothing trains or tunes on it (decision 075).
 * functional-suite-v2.json adds categories in the same shape, with the groups and
 * fillers of the first file; it is reported apart so the first file's rows stay comparable.
 * The verdict suites (verdict-suites.ts) are files of the same shape with groups of their own.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SUITE_PATH = join(dirname(fileURLToPath(import.meta.url)), 'functional-suite.json');
export const SUITE_V2_PATH = join(dirname(fileURLToPath(import.meta.url)), 'functional-suite-v2.json');

export type Expected = 'harmful' | 'not_harmful';
/**
 * `none`: the frame is a whole sentence, one case. `long`: frames unused; one case per index below
 * `count`, built by longText() from the file's `paragraphs` plus one of the category's `endings`.
 */
type Uses = 'group' | 'slur' | 'thing' | 'item' | 'who' | 'none' | 'long';
const USES: readonly string[] = ['group', 'slur', 'thing', 'item', 'who', 'none', 'long'];

export interface SuiteGroup {
  id: string;
  /** What the group is defined by (race, religion, nationality, gender, sexuality, disability, age), where a file reports by it. */
  kind?: string;
  /** Plural noun phrase, lower case unless a proper noun ("trans people", "Jews"). */
  plural: string;
  /** Singular with its article ("an immigrant"). */
  one: string;
  /** Predicative adjective ("gay", "Muslim", "foreign-born"), for `{adj}`. */
  adj?: string;
  /** Singular noun phrase without its article ("gay man", "Muslim woman"), for `{person}`. */
  person?: string;
  /** The adjective used as a noun ("a gay", "a Black"), for `{noun}`; `person` where the group has none. */
  noun?: string;
  /** [singular, plural] slur pairs; empty (or absent in the file) where the suite has none for the group. */
  slurs: [string, string][];
}
export interface SuiteCategory {
  id: string;
  expected: Expected;
  uses: Uses;
  frames: string[];
  /**
   * `group` only: fill each frame with this many groups, rotating through the list, instead of all
   * of them; enough cases from many frames rather than 30 copies of a few.
   */
  groupsPerFrame?: number;
  /** `long` only: how many texts. */
  count?: number;
  /** `long` only: the sentence appended after the prose (cycled); none for the benign control. */
  endings?: string[];
}
export interface SuiteFile {
  groups: SuiteGroup[];
  /**
   * Slot fillers; `name` (first names for `{name}` in group frames) rotates through the cases. A list a
   * file does not need may be absent.
   */
  fillers: Record<'thing' | 'item' | 'who', string[]> & { name?: string[] };
  categories: SuiteCategory[];
  /** Benign prose paragraphs the `long` categories are built from. */
  paragraphs?: string[];
}
export interface SuiteCase {
  /** Stable id: category, frame index, filler or group (and slur index). */
  id: string;
  category: string;
  /** Group id for group and slur cases, null for the non-group categories. */
  group: string | null;
  frame: string;
  text: string;
  expected: Expected;
}

export function readSuite(path = SUITE_PATH): SuiteFile {
  const suite = JSON.parse(readFileSync(path, 'utf8')) as SuiteFile;
  suite.groups ??= [];
  for (const g of suite.groups) g.slurs ??= [];
  const f: Partial<SuiteFile['fillers']> = suite.fillers ?? {};
  suite.fillers = { ...f, thing: f.thing ?? [], item: f.item ?? [], who: f.who ?? [] };
  for (const c of suite.categories) {
    if (c.expected !== 'harmful' && c.expected !== 'not_harmful')
      throw new Error(`${path}: category ${c.id}: bad expected "${c.expected}"`);
    if (!USES.includes(c.uses)) throw new Error(`${path}: category ${c.id}: bad uses "${c.uses}"`);
    if (c.uses === 'long' && (!c.count || !suite.paragraphs?.length))
      throw new Error(`${path}: category ${c.id}: a long category needs a count and the file's paragraphs`);
  }
  return suite;
}

/** The v2 categories with the groups and fillers of the first file (one list of groups for both). */
export function readSuiteV2(path = SUITE_V2_PATH, base: SuiteFile = readSuite()): SuiteFile {
  const v2 = readSuite(path);
  return { groups: base.groups, fillers: base.fillers, categories: v2.categories, paragraphs: v2.paragraphs ?? [] };
}

export const LONG_MIN_CHARS = 2000;
/** Prose lengths spread over [LONG_MIN_CHARS, LONG_MIN_CHARS + LONG_SPREAD_CHARS) by the case index. */
export const LONG_SPREAD_CHARS = 6000;

/**
 * Prose for long case `k`: paragraphs taken in order from a start that moves with k, until the text
 * reaches a length that also moves with k; no paragraph twice. The harmful and the benign category
 * get the same prose for the same k, so the only difference between a pair is the ending.
 */
export function longProse(paragraphs: readonly string[], k: number): string {
  const target = LONG_MIN_CHARS + ((k * 1237) % LONG_SPREAD_CHARS);
  const start = (k * 7) % paragraphs.length;
  const parts: string[] = [];
  let len = 0;
  for (let i = 0; i < paragraphs.length && len < target; i++) {
    const p = paragraphs[(start + i) % paragraphs.length]!;
    parts.push(p);
    len += p.length + 2;
  }
  if (len < target) throw new Error(`long prose: the paragraphs add up to ${len} characters, fewer than ${target}`);
  return parts.join('\n\n');
}

export function longText(paragraphs: readonly string[], endings: readonly string[], k: number): string {
  const prose = longProse(paragraphs, k);
  return endings.length ? `${prose}\n\n${endings[k % endings.length]}` : prose;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Fill `{slot}` / `{Slot}` placeholders; an unknown placeholder is an error, not silent text. */
export function fillFrame(frame: string, values: Record<string, string>): string {
  return frame.replace(/\{([A-Za-z]+)\}/g, (m, name: string) => {
    const lower = name.toLowerCase();
    const v = values[lower];
    if (v === undefined) throw new Error(`frame "${frame}": no value for ${m}`);
    return name[0] === name[0]!.toUpperCase() ? capitalise(v) : v;
  });
}

/** A group's slot values; forms the group lacks stay unset, so a frame that needs one fails in fillFrame. */
function groupValues(g: SuiteGroup, names: readonly string[] | undefined, k: number): Record<string, string> {
  const v: Record<string, string> = { group: g.plural, one: g.one };
  if (g.adj !== undefined) v.adj = g.adj;
  if (g.person !== undefined) v.person = g.person;
  const noun = g.noun ?? g.person;
  if (noun !== undefined) v.noun = noun;
  if (names?.length) v.name = names[k % names.length]!;
  return v;
}

export function expandSuite(suite: SuiteFile = readSuite()): SuiteCase[] {
  const out: SuiteCase[] = [];
  for (const cat of suite.categories) {
    const before = out.length;
    cat.frames.forEach((frame, f) => {
      const push = (key: string, group: string | null, values: Record<string, string>) =>
        out.push({ id: `${cat.id}/${f}/${key}`, category: cat.id, group, frame, text: fillFrame(frame, values), expected: cat.expected });
      if (cat.uses === 'none') {
        push('-', null, {});
      } else if (cat.uses === 'group' && cat.groupsPerFrame) {
        for (let j = 0; j < cat.groupsPerFrame; j++) {
          const k = f * cat.groupsPerFrame + j;
          const g = suite.groups[k % suite.groups.length]!;
          push(g.id, g.id, groupValues(g, suite.fillers.name, k));
        }
      } else if (cat.uses === 'group') {
        suite.groups.forEach((g, j) => push(g.id, g.id, groupValues(g, suite.fillers.name, f * suite.groups.length + j)));
      } else if (cat.uses === 'slur') {
        for (const g of suite.groups) g.slurs.forEach(([slur, slurs], k) => push(`${g.id}.${k}`, g.id, { slur, slurs }));
      } else if (cat.uses !== 'long') {
        suite.fillers[cat.uses].forEach((v, k) => push(String(k), null, { [cat.uses]: v }));
      }
    });
    if (cat.uses === 'long') {
      for (let k = 0; k < cat.count!; k++) {
        const text = longText(suite.paragraphs ?? [], cat.endings ?? [], k);
        out.push({ id: `${cat.id}/long/${k}`, category: cat.id, group: null, frame: '', text, expected: cat.expected });
      }
    }
    // A category whose slot has nothing to fill it (no groups, slurs or fillers) would vanish from the report silently.
    if (out.length === before) throw new Error(`category ${cat.id} (uses ${cat.uses}) expands to no case`);
  }
  return out;
}
