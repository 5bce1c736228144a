/**
 * Counterfactual data augmentation (CDA) for identity terms (stage 3, optional): every TRAINING row
 * that names an identity group gets one copy with each group term swapped for another group's term
 * of the same grammatical kind, labels unchanged, so that a group term by itself carries no toxicity
 * (counterfactual token fairness; Garg et al. 2019, "Counterfactual Fairness in Text Classification
 * through Robustness"; Lu et al. 2018 for CDA). Writes `.work/toxicity/cda.jsonl`, tokenised with the
 * serving tokenizer like every other row; `finetune.py` adds it to its training pool when
 * TOX_FT_CDA=1.
 *
 * The swap lexicon below is written for this file from the group names the project already uses
 * (identity-augmentation.json / identity-validation.json groups). It does not read
 * identity-templates.json (the evaluation instrument) and adds no new sentences: only training-split
 * texts are rewritten. Validation and test rows are never touched.
 *
 *   npx tsx models/toxic_transformer_v1/cda.ts
 */
import { readFileSync, writeFileSync, createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { preprocess } from '@/lib/moderation/preprocess';
import { createToxicityTokenizer, encodeText } from '@/lib/moderation/toxicity/toxicity-core';
import { fnv1a, rng } from './obfuscate';
import { HERE, WORK } from './split-rows';

const MAX_LENGTH = 128;

/** Adjectives that also read as singular nouns ("a Muslim", "Muslim women"). */
export const CDA_ADJ = [
  'muslim', 'jewish', 'christian', 'hindu', 'sikh', 'buddhist', 'atheist', 'gay', 'lesbian', 'bisexual',
  'transgender', 'queer', 'asian', 'chinese', 'mexican', 'latino', 'hispanic', 'arab', 'african', 'indian',
  'immigrant', 'refugee',
];
/** Plural nouns. */
export const CDA_PLURAL = [
  'muslims', 'jews', 'christians', 'hindus', 'sikhs', 'buddhists', 'atheists', 'gays', 'lesbians', 'bisexuals',
  'blacks', 'whites', 'asians', 'mexicans', 'latinos', 'hispanics', 'arabs', 'africans', 'indians', 'immigrants',
  'refugees', 'migrants',
];
/** Colour words count as group terms only before a people noun ("black people", "white guys"). */
const COLOUR_NOUNS = 'people|persons?|men|man|women|woman|folks?|guys?|girls?|boys?|kids?|americans?|families|family|community|communities|neighbou?rhoods?';
/** "jew" (noun only) is swapped for nouns that also work after "a". */
const NOUN_TARGETS = ['muslim', 'christian', 'hindu', 'sikh', 'buddhist', 'atheist'];

const TERM_RE = new RegExp(
  `\\b(?:(${CDA_PLURAL.join('|')})|(${CDA_ADJ.join('|')})|(jew)|(black|white)(?=\\s+(?:${COLOUR_NOUNS})\\b))\\b`,
  'gi',
);

function matchCase(src: string, dst: string): string {
  if (src === src.toUpperCase() && src.length > 1) return dst.toUpperCase();
  if (src.charAt(0) === src.charAt(0).toUpperCase()) return dst.charAt(0).toUpperCase() + dst.slice(1);
  return dst;
}

/** The groups a text names, canonical (singular/adjective) and de-duplicated, in order of appearance. */
export function namedGroups(text: string): string[] {
  const canon: Record<string, string> = { jew: 'jewish', jews: 'jewish', blacks: 'black', whites: 'white', migrants: 'immigrant' };
  const out = new Set<string>();
  for (const m of text.matchAll(TERM_RE)) {
    const key = m[0].toLowerCase();
    out.add(canon[key] ?? (m[1] ? key.replace(/s$/, '') : key));
  }
  return [...out];
}

/** The counterfactual copy of `text`, or null when it names no group. Deterministic per text. */
export function counterfactual(text: string): string | null {
  const rand = rng(fnv1a(`cda|${text}`));
  const chosen = new Map<string, string>();
  let hit = false;
  const out = text.replace(TERM_RE, (m: string, pl?: string, _adj?: string, jew?: string) => {
    hit = true;
    const key = m.toLowerCase();
    let dst = chosen.get(key);
    if (dst === undefined) {
      const pool = pl ? CDA_PLURAL : jew ? NOUN_TARGETS : CDA_ADJ; // adjectives and colour terms -> adjectives
      const options = pool.filter((t) => t !== key);
      dst = options[Math.floor(rand() * options.length)] ?? key;
      chosen.set(key, dst);
    }
    return matchCase(m, dst);
  });
  return hit && out !== text ? out : null;
}

async function main(): Promise<void> {
  const tokJson = JSON.parse(readFileSync(join(HERE, 'tokenizer.json'), 'utf8')) as object;
  const tokConfig = JSON.parse(readFileSync(join(HERE, 'tokenizer_config.json'), 'utf8')) as object;
  const tokenizer = createToxicityTokenizer(tokJson, tokConfig);
  const lines: string[] = [];
  const pairs: string[] = [];
  // Counterfactual pairs for logit pairing (CLP, Garg et al. 2019): a neutral text (every labelled
  // head 0, `overall` labelled) and its counterfactual. Neutral training rows and the training
  // identity frames (identity_aug.jsonl) only; toxic rows are not paired, as in the paper.
  const pairOf = (r: { t: string; y: number[]; m: number[] }, cf: string): void => {
    if (r.m[0] !== 1 || r.y.some((v, k) => r.m[k] === 1 && v >= 0.5)) return;
    const clean = preprocess(cf).clean;
    pairs.push(JSON.stringify({ a: encodeText(tokenizer, r.t, MAX_LENGTH), b: encodeText(tokenizer, clean, MAX_LENGTH) }));
  };
  for (const split of ['train', 'identity_aug'] as const) {
    const rl = createInterface({ input: createReadStream(join(WORK, `${split}.jsonl`), 'utf8'), crlfDelay: Infinity });
    for await (const line of rl) {
      if (!line) continue;
      const r = JSON.parse(line) as { t: string; y: number[]; m: number[]; c: string; j: number };
      const cf = counterfactual(r.t);
      if (cf === null) continue;
      pairOf(r, cf);
      if (split !== 'train') continue;
      const clean = preprocess(cf).clean;
      lines.push(JSON.stringify({ t: clean, ids: encodeText(tokenizer, clean, MAX_LENGTH), y: r.y, m: r.m, c: `cda:${r.c}`, j: r.j }));
    }
  }
  // Validation rows that name a group (for select_checkpoint.py's natural-text identity measure).
  const valGroups: string[] = [];
  let i = 0;
  const rl = createInterface({ input: createReadStream(join(WORK, 'val.jsonl'), 'utf8'), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line) continue;
    const groups = namedGroups((JSON.parse(line) as { t: string }).t);
    if (groups.length > 0) valGroups.push(JSON.stringify({ i, groups }));
    i++;
  }
  writeFileSync(join(WORK, 'val-groups.jsonl'), `${valGroups.join('\n')}\n`);
  writeFileSync(join(WORK, 'cda.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(join(WORK, 'cda-pairs.jsonl'), `${pairs.join('\n')}\n`);
  console.log(`cda.jsonl: ${lines.length} counterfactual copies of training rows; cda-pairs.jsonl: ${pairs.length} neutral pairs`);
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
