/**
 * The one normaliser every moderation model and rule reads from (docs/architecture.md "What each model sees").
 * Training and serving call this same function, so a model never sees text prepared differently
 * from what it was trained on.
 *
 * `visible` is the text as written, made safe to index: lone surrogates repaired, NFKC (bounded),
 * invisible characters removed. Caps and repetition rules read it, and every rule span indexes it.
 * `clean` is what the models read: `visible` with each step of `CLEAN_STEPS` applied in order.
 * Each step reports its changes as edits (`normalise/text-edits.ts`); they are kept in
 * `cleanEdits`, so a span of `clean` maps back to `visible` exactly (`rules/map-to-visible.ts`).
 * Case is preserved; each model lowercases on its own. `lexical` (the rules' own, lossier fold,
 * see `lexical-fold.ts`) is built from `clean` for lexicon matching only.
 *
 * Size bound (denial of service): `visible.length <= MAX_NFKC_EXPANSION × input length` and
 * `clean.length <= 2 × visible.length + 64` (UTF-16 units), whatever the input; every step is
 * linear in its input. See `normalise/bounded-nfkc.ts` and `GrowthBudget`.
 */
import { boundedNfkc } from './normalise/bounded-nfkc';
import { foldSpacingDiacritics } from './normalise/confusable-letters';
import { whitespaceEdits } from './normalise/collapse-whitespace';
import { foldHomoglyphs, homoglyphEdits } from './normalise/fold-homoglyphs';
import { leetEdits } from './normalise/fold-leetspeak';
import { spacedLetterEdits } from './normalise/join-spaced-letters';
import { removeInvisible, stripInvisible } from './normalise/remove-invisible';
import { symbolEdits } from './normalise/remove-symbols';
import { algospeakEdits } from './normalise/replace-algospeak';
import { MENTION_PLACEHOLDER, URL_PLACEHOLDER, linkEdits } from './normalise/replace-links';
import { stretchedEdits } from './normalise/squeeze-stretched';
import { stripMarkupEdits } from './normalise/strip-markup';
import { type Edit, type EditLog, GrowthBudget, applyEdits } from './normalise/text-edits';

export { MENTION_PLACEHOLDER, URL_PLACEHOLDER, foldHomoglyphs, removeInvisible };

export interface Preprocessed {
  /** The text exactly as received. */
  original: string;
  /** NFKC (bounded) + invisibles removed, case, markup and spacing kept: what caps/repetition rules read. */
  visible: string;
  /** `visible` after every step of `CLEAN_STEPS`: what every model reads. */
  clean: string;
  /**
   * The edits each step that changed something made, in order; maps `clean` spans back to
   * `visible`. Absent on hand-built values (unit tests), which then map one to one.
   */
  cleanEdits?: readonly EditLog[];
}

export interface CleanStep {
  /** Name used in docs/architecture.md's step list and in tests. */
  readonly name: string;
  readonly edits: (text: string) => Edit[];
}

/**
 * How `visible` is made, and what a decoded character reference goes through like the rest of it:
 * bounded NFKC with invisible characters removed (normalise/remove-invisible.ts), and the spacing
 * diacritics that imitate a letter or an apostrophe ("i´ll") replaced by it first, since NFKC would
 * split each into a space and a mark. Invisible characters are removed before NFKC too, so a letter and the combining mark an invisible character separated compose as
 * they would have without it (the review queue's text identity does the same).
 */
const normaliseVisible = (s: string) => removeInvisible(boundedNfkc(foldSpacingDiacritics(stripInvisible(s))));

/** The steps from `visible` to `clean`, in order (docs/architecture.md "What each model sees" lists them). */
export const CLEAN_STEPS: readonly CleanStep[] = [
  { name: 'strip-markup', edits: (t) => stripMarkupEdits(t, normaliseVisible) },
  { name: 'fold-homoglyphs', edits: homoglyphEdits },
  { name: 'replace-links', edits: linkEdits },
  { name: 'remove-symbols', edits: symbolEdits },
  { name: 'join-spaced-letters', edits: spacedLetterEdits },
  { name: 'fold-leetspeak', edits: leetEdits },
  { name: 'squeeze-stretched', edits: stretchedEdits },
  { name: 'replace-algospeak', edits: algospeakEdits },
  { name: 'collapse-whitespace', edits: whitespaceEdits },
];

/** `visible` of a text: lone surrogates become U+FFFD, then bounded NFKC and invisibles removed. */
export function toVisible(text: string): string {
  return normaliseVisible(text.toWellFormed());
}

export function preprocess(text: string): Preprocessed {
  return preprocessWith(text, CLEAN_STEPS);
}

/** `preprocess` with a chosen list of steps (the benign-text check and the evaluation compare lists). */
export function preprocessWith(text: string, steps: readonly CleanStep[]): Preprocessed {
  const visible = toVisible(text);
  let clean = visible;
  const cleanEdits: EditLog[] = [];
  const budget = new GrowthBudget(visible.length);
  for (const step of steps) {
    const edits = step.edits(clean);
    if (edits.length === 0) continue;
    // A growing edit past the size bound is skipped: the text keeps what was written there.
    const allowed = edits.filter((e) => budget.take(e.text.length - (e.end - e.start)));
    const applied = applyEdits(clean, allowed);
    if (applied.log.length === 0) continue;
    clean = applied.text;
    cleanEdits.push(applied.log);
    budget.settle(clean.length);
  }
  return { original: text, visible, clean, cleanEdits };
}
