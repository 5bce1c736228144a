/**
 * The functional suite of `npm run eval:text`: hand-written frames and slot fillers in
 * functional-suite.json, expanded deterministically (file order: category, frame, group or filler)
 * into labelled test cases. Evaluation only: nothing trains or tunes on it (decision 075).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SUITE_PATH = join(dirname(fileURLToPath(import.meta.url)), 'functional-suite.json');

export type Expected = 'harmful' | 'not_harmful';
type Uses = 'group' | 'slur' | 'thing' | 'item' | 'who';

export interface SuiteGroup {
  id: string;
  /** Plural noun phrase, lower case unless a proper noun ("trans people", "Jews"). */
  plural: string;
  /** Singular with its article ("an immigrant"). */
  one: string;
  /** [singular, plural] slur pairs; empty where the suite has none for the group. */
  slurs: [string, string][];
}
export interface SuiteCategory {
  id: string;
  expected: Expected;
  uses: Uses;
  frames: string[];
}
export interface SuiteFile {
  groups: SuiteGroup[];
  fillers: Record<'thing' | 'item' | 'who', string[]>;
  categories: SuiteCategory[];
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
  for (const c of suite.categories) {
    if (c.expected !== 'harmful' && c.expected !== 'not_harmful')
      throw new Error(`${path}: category ${c.id}: bad expected "${c.expected}"`);
    if (!['group', 'slur', 'thing', 'item', 'who'].includes(c.uses)) throw new Error(`${path}: category ${c.id}: bad uses "${c.uses}"`);
  }
  return suite;
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

export function expandSuite(suite: SuiteFile = readSuite()): SuiteCase[] {
  const out: SuiteCase[] = [];
  for (const cat of suite.categories) {
    cat.frames.forEach((frame, f) => {
      const push = (key: string, group: string | null, values: Record<string, string>) =>
        out.push({ id: `${cat.id}/${f}/${key}`, category: cat.id, group, frame, text: fillFrame(frame, values), expected: cat.expected });
      if (cat.uses === 'group') {
        for (const g of suite.groups) push(g.id, g.id, { group: g.plural, one: g.one });
      } else if (cat.uses === 'slur') {
        for (const g of suite.groups) g.slurs.forEach(([slur, slurs], k) => push(`${g.id}.${k}`, g.id, { slur, slurs }));
      } else {
        suite.fillers[cat.uses].forEach((v, k) => push(String(k), null, { [cat.uses]: v }));
      }
    });
  }
  return out;
}
