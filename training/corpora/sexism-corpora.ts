/**
 * The sexism-labelled rows that sexism_lasso_v1 trains on besides EDOS train, each mapped to
 * sexist (1) / not sexist (0) by an explicit rule (the model card lists them). Node-only.
 *
 * Held out of training by construction:
 * - EDOS dev and test (tuning and the reported score) and any extra row whose model input equals an
 *   EDOS dev or test text;
 * - ConvAbuse dev and test, HatEval test (their official splits, for the team's evaluation);
 * - a fixed 10% hash slice of the corpora without an official split (Call me sexist but, ToxiGen),
 *   reported as `extra_val` and never tuned on;
 * - stormfront_hate.csv is never read (the out-of-domain corpus of the evaluation).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCsvRecords, requireColumn } from '@/training/ml/csv';
import { preprocess } from '@/lib/moderation/preprocess';
import { sexismModelInput } from '@/lib/moderation/sexism/sexism-model';
import { fnv1a } from '@/training/ml/hash';
import type { DecisionRow } from './decision-corpus';

export type ExtraCorpus = 'cmsb' | 'cmsb_rewrite' | 'hateval' | 'toxigen' | 'convabuse' | 'review_decisions';

export interface ExtraExample {
  corpus: ExtraCorpus;
  /** Model input (preprocessed, lowercased). */
  input: string;
  label: 0 | 1;
  /** 'train' rows are fitted on; 'val' rows are only reported. */
  part: 'train' | 'val';
}

export const EXTRA_FILES = {
  cmsb: 'text/call_me_sexist_but.csv',
  hateval: 'text/hateval2019.csv',
  toxigen: 'text/toxigen_statements.csv',
  convabuse: 'text/convabuse.csv',
} as const;

const SPLIT_SALT = 'sexism_lasso_v1|';

/** A fixed 10% validation slice, the same on every run: FNV-1a of a salted key. */
export function hashPart(key: string): 'train' | 'val' {
  return fnv1a(SPLIT_SALT + key) % 10 === 0 ? 'val' : 'train';
}

/**
 * HatEval 2019 mixes hate against women and against immigrants with no target column. A row is
 * taken as "about women" when it has a woman-referring word and no migration word; the rest is
 * dropped. Its hate label then maps to sexist, its non-hate label to not sexist.
 */
const WOMEN_WORDS =
  /\b(wom[ae]n|womens?|girls?|gals?|lad(y|ies)|females?|feminis[mt]s?|feminazis?|bitch(es|y)?|b[i1]tches|whores?|hoes?|sluts?|skanks?|cunts?|thots?|wi(fe|ves)|girlfriends?|gf|sisters?|mothers?|moms?|daughters?|she|her|hers|herself)\b/i;
const MIGRATION_WORDS =
  /(immigra|migra|refugee|rapefugee|asylum|illegals?\b|border|deport|invader|invasion|daca|dreamers|sendthemback|buildthatwall|buildthewall|nomorerefugees|noamnesty|amnesty|islam|muslim|sharia|africans?\b|mexic)/i;

export function isHatEvalWomenRow(text: string): boolean {
  return WOMEN_WORDS.test(text) && !MIGRATION_WORDS.test(text);
}

function read(dataDir: string, file: string): Record<string, string>[] {
  const path = resolve(dataDir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${path} (set VIGIL_DATA_DIR or pass --data): ${(err as Error).message}`);
  }
  return parseCsvRecords(text).rows;
}

/** Corpus mentions ("MENTION123", "@user") become what live mentions become after preprocessing. */
function toInput(text: string): string {
  return sexismModelInput(preprocess(text.replace(/\bMENTION\d+\b/g, '@user')));
}

/**
 * Every extra row, labels mapped, EDOS dev/test duplicates removed. `heldOutInputs` = EDOS dev + test model inputs.
 * `decisions`: moderators' decisions (decision-corpus.ts); those with a sexism label join, with the same 10% hash slice held out.
 */
export function loadExtraCorpora(
  dataDir: string,
  heldOutInputs: ReadonlySet<string>,
  decisions: readonly DecisionRow[] = [],
): ExtraExample[] {
  const out: ExtraExample[] = [];
  const push = (corpus: ExtraCorpus, text: string, label: 0 | 1, part: 'train' | 'val') => {
    const input = toInput(text);
    if (input.trim().length === 0 || heldOutInputs.has(input)) return;
    out.push({ corpus, input, label, part });
  };

  // Call me sexist but: `sexist` as given; a rewrite (of_id != -1) keeps its own label and the
  // split of the row it rewrites, so a minimal pair never straddles train and val.
  for (const r of read(dataDir, EXTRA_FILES.cmsb)) {
    const s = requireColumn(r, 'sexist');
    if (s !== 'True' && s !== 'False') throw new Error(`call_me_sexist_but: sexist "${s}"`);
    const ofId = requireColumn(r, 'of_id');
    const isRewrite = ofId !== '-1';
    const pairKey = isRewrite ? ofId : requireColumn(r, 'id');
    push(isRewrite ? 'cmsb_rewrite' : 'cmsb', requireColumn(r, 'text'), s === 'True' ? 1 : 0, hashPart(`cmsb|${pairKey}`));
  }

  // HatEval 2019: rows about women only (isHatEvalWomenRow); official train + val are trained on,
  // the official test split is left for evaluation.
  for (const r of read(dataDir, EXTRA_FILES.hateval)) {
    const split = requireColumn(r, 'split');
    const text = requireColumn(r, 'comment_text');
    if (split === 'test' || !isHatEvalWomenRow(text)) continue;
    const hate = requireColumn(r, 'hate');
    if (hate !== '0' && hate !== '1') throw new Error(`hateval: hate "${hate}"`);
    push('hateval', text, hate === '1' ? 1 : 0, 'train');
  }

  // ToxiGen statements with group "women": hate -> sexist, neutral -> not sexist.
  for (const r of read(dataDir, EXTRA_FILES.toxigen)) {
    if (requireColumn(r, 'group') !== 'women') continue;
    const text = requireColumn(r, 'text');
    const lab = requireColumn(r, 'label');
    if (lab !== 'hate' && lab !== 'neutral') throw new Error(`toxigen: label "${lab}"`);
    push('toxigen', text, lab === 'hate' ? 1 : 0, hashPart(`toxigen|${text}`));
  }

  // ConvAbuse, official train split, the annotated `user` turn: sexist_share >= 0.5 -> sexist,
  // 0 -> not sexist (abusive or not), anything between is ambiguous and dropped.
  for (const r of read(dataDir, EXTRA_FILES.convabuse)) {
    if (requireColumn(r, 'split') !== 'train') continue;
    const share = Number(requireColumn(r, 'sexist_share'));
    if (!Number.isFinite(share)) throw new Error('convabuse: sexist_share is not a number');
    if (share > 0 && share < 0.5) continue;
    push('convabuse', requireColumn(r, 'user'), share >= 0.5 ? 1 : 0, 'train');
  }

  for (const d of decisions) {
    if (d.sexist !== undefined) push('review_decisions', d.text, d.sexist, hashPart(`review_decisions|${d.text}`));
  }
  return out;
}
