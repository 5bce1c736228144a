/**
 * One file on purpose: one step of the training pipeline that writes every split and validation file from
 * one merged set of rows; the committed model was trained on exactly these outputs, so it is kept as it ran.
 *
 * Step 1 of `npm run train:toxicity`: corpora -> normalised, deduplicated, split, label-masked rows,
 * as token ids from the SERVING tokenizer (`loadToxicityTokenizer` + `encodeForModel`, the functions
 * the server and the browser Worker call). With `--encoder <dir>` it first copies the pretrained
 * encoder's tokenizer into the model folder (the committed `tokenizer.json` / `tokenizer_config.json`).
 * Writes `.work/toxicity/` (train/val/test/identity_val/contrast_val/noun_val/sexism_dev JSONL,
 * prepare-stats.json).
 *
 *   tsx training/toxic_transformer_v1/prepare.ts [--data ../shared/data] [--encoder <encoder package model dir>]
 *     [--decisions <exported decisions.csv>[,…]]   (or VIGIL_DECISION_CORPORA: moderators' decisions as an extra corpus)
 *
 * Splits are fixed by a hash of the normalised text (duplicates across corpora share a split and
 * are merged), so they do not depend on file order or on which corpora are present.
 */
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { preprocess } from '@/lib/moderation/preprocess';
import { TOXICITY_HEADS } from '@/lib/moderation/types';
import { encodeForModel } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { decisionCorpusFiles, readDecisionCorpora, type DecisionRow } from '@/training/corpora/decision-corpus';
import type { HeadLabels } from '@/training/corpora/head-labels';
import { readCorpora, denseLabels as denseHeadLabels, JIGSAW_CORPORA } from '@/training/corpora/toxicity-corpora';
import { dedupeKey, splitOf, type Split, stripPunctuation } from '@/training/corpora/toxicity-split';
import { fnv1a } from '@/training/ml/hash';
import { loadSexismDataset } from '../sexism_lasso_v1/dataset';
import { rng, leetspeak, insertSpaces } from './obfuscate';
import { fillIdentityTemplate, hasNounForms, type IdentityGroup } from './identity-templates';
import { contrastCases } from './contrast-cases';
import { MODEL_DIR, TRAINING_DIR } from './model-dir';
import { runIfScript } from '@/training/ml/run-as-script';

const ROOT = resolve(TRAINING_DIR, '../..');
export const WORK_DIR = join(ROOT, '.work/toxicity');
export const MAX_LENGTH = 128;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * The model's labels, in logit order: the five API heads, then `sexism`, a head trained beside them
 * whose logit sexism_lasso_v1 reads as one of its features (the API's toxicity block never shows it).
 */
export const LABELS = [...TOXICITY_HEADS, 'sexism'] as const;
/** Toxicity labels plus the sexism label: a text labelled not toxic (overall 0) is taken as not sexist. */
function denseLabels(l: HeadLabels, sexism?: number): { y: number[]; m: number[] } {
  const d = denseHeadLabels(l);
  const notToxic = d.m[0] === 1 && d.y[0]! < 0.5;
  const s = sexism ?? (notToxic ? 0 : undefined);
  return { y: [...d.y, s ?? 0], m: [...d.m, s === undefined ? 0 : 1] };
}

interface Row {
  text: string;
  split: Split;
  corpus: string;
  jigsaw: boolean;
  y: number[];
  m: number[];
}

/** Training-only augmentation so casing/punctuation and simple obfuscation are not shortcuts. */
function augment(clean: string, lowercased: boolean): string {
  const r = rng(fnv1a(`aug|${clean}`));
  const u = r();
  if (u < 0.15 && !lowercased) return stripPunctuation(clean);
  if (u < 0.25) return preprocess(leetspeak(clean, r, 0.3)).clean;
  if (u < 0.29) return preprocess(insertSpaces(clean, r, 0.15)).clean;
  return clean;
}

/** Corpora -> merged rows (labels averaged over duplicates; a head counts as labelled if any copy labels it). */
export function mergedRows(dataDir: string, decisions: readonly DecisionRow[] = []): Row[] {
  const merged = new Map<string, { clean: string; corpora: string[]; lowercased: boolean; sums: number[]; counts: number[] }>();
  for (const row of readCorpora(dataDir, { decisions })) {
    const clean = preprocess(row.text).clean;
    if (clean.length === 0) continue;
    const key = dedupeKey(clean);
    const { y, m } = denseLabels(row.labels);
    let g = merged.get(key);
    if (!g) {
      g = { clean, corpora: [], lowercased: row.lowercased, sums: LABELS.map(() => 0), counts: LABELS.map(() => 0) };
      merged.set(key, g);
    } else if (g.lowercased && !row.lowercased) {
      // Prefer the cased, punctuated copy of a duplicate.
      g.clean = clean;
      g.lowercased = false;
    }
    if (!g.corpora.includes(row.corpus)) g.corpora.push(row.corpus);
    for (let h = 0; h < LABELS.length; h++) {
      if (m[h]) {
        g.sums[h]! += y[h]!;
        g.counts[h]! += 1;
      }
    }
  }
  const rows: Row[] = [];
  for (const g of merged.values()) {
    const split = splitOf(g.clean);
    const text = split === 'train' ? augment(g.clean, g.lowercased) : g.clean;
    if (text.length === 0) continue;
    rows.push({
      text,
      split,
      corpus: g.corpora[0]!,
      jigsaw: g.corpora.some((c) => JIGSAW_CORPORA.has(c)),
      y: g.sums.map((s, h) => (g.counts[h]! > 0 ? Math.round((s / g.counts[h]!) * 1000) / 1000 : 0)),
      m: g.counts.map((c) => (c > 0 ? 1 : 0)),
    });
  }
  return rows;
}

interface ContrastFile {
  toxic: { frame: string; threat: number }[];
  benign: string[];
  /** Things (not people) that `objectAbuse` and `casualProfanity` are about. */
  objects: string[];
  objectAbuse: string[];
  casualProfanity: string[];
}

/**
 * Training-only identity rows: neutral sentences naming a group (identity-augmentation.json) and the
 * contrastive set (identity-contrast.json: hateful frames, and benign frames that quote, report or
 * reject hate), each filled with every group, plus abuse of objects and casual swearing (filled with
 * `objects`). Labels are full (every head) except where a comment below says otherwise.
 */
export function identityTrainingRows(): Row[] {
  const aug = JSON.parse(readFileSync(join(TRAINING_DIR, 'identity-augmentation.json'), 'utf8')) as {
    frames: string[];
    groups: IdentityGroup[];
  };
  const contrast = JSON.parse(readFileSync(join(TRAINING_DIR, 'identity-contrast.json'), 'utf8')) as ContrastFile;
  const rows: Row[] = [];
  const addText = (text: string, y: HeadLabels, corpus: string, sexism?: number) => {
    const d = denseLabels(y, sexism);
    rows.push({ text: preprocess(text).clean, split: 'train', corpus, jigsaw: false, y: d.y, m: d.m });
  };
  const add = (frame: string, g: IdentityGroup, y: HeadLabels, corpus: string, sexism?: number) =>
    addText(fillIdentityTemplate(frame, g), y, corpus, sexism);
  const zero = { overall: 0, insult: 0, threat: 0, identity_attack: 0, profanity: 0 };
  for (const g of aug.groups) {
    for (const f of aug.frames) add(f, g, zero, 'identity_neutral', 0);
    for (const f of contrast.benign) add(f, g, zero, 'identity_counter', 0);
    // Hateful frames: insult and profanity are left unlabelled (a slur-free dehumanising sentence is
    // not necessarily an insult to the reader).
    // Hate at women is sexism; hate at another group is not (that is identity_attack's job).
    const women = /\bwomen\b/i.test(g.plural);
    for (const t of contrast.toxic) add(t.frame, g, { overall: 1, identity_attack: 1, threat: t.threat }, 'identity_hate', women ? 1 : 0);
  }
  // Anger at a thing, and swearing at nobody, are not abuse of a person: 0 on the person-directed heads.
  // Swearing is still profanity (1); an angry sentence about a printer says nothing either way about
  // the profanity head, so that head stays unlabelled there.
  const thing = (frame: string, object: string) => frame.replaceAll('{object}', object);
  const notAbuse = { overall: 0, insult: 0, threat: 0, identity_attack: 0 };
  for (const o of contrast.objects) {
    for (const f of contrast.objectAbuse) addText(thing(f, o), notAbuse, 'identity_object');
    for (const f of contrast.casualProfanity) addText(thing(f, o), { ...notAbuse, profanity: 1 }, 'identity_object');
  }
  return rows;
}

interface ContrastTrainingFile {
  groups: IdentityGroup[];
  benign: Record<string, string[]>;
  hateful: string[];
  endorsed: string[];
  homonyms: string[];
  /** Benign frames that use a group word as a noun ({noun}, {nouns}): filled for the groups that give it. */
  nounBenign?: Record<string, string[]>;
  /** Whole benign sentences about groups (labelled like the homonyms). */
  benignSentences?: string[];
}

/**
 * Training-only contrast rows (contrast-training.json), part of the main pass: neutral, positive,
 * negated and counter-speech sentences about 69 groups, and slur homonyms and in-group reclaimed use
 * (0 on overall, insult, identity_attack and profanity); hateful and endorsed-hate sentences about the
 * same groups (overall and identity_attack 1). Threat is unlabelled on all of them: template threat
 * labels cost validation threat AUC (docs/experiments/toxicity-history.md). The corpus names start with
 * `contrast_`, so train.py does not repeat them as it repeats `identity_` rows. Friendly and neutral
 * frames that use the group word as a noun ("a gay", "Blacks", "the elderly") are filled only for the
 * groups that give that form.
 */
export function contrastTrainingRows(): Row[] {
  const spec = JSON.parse(readFileSync(join(TRAINING_DIR, 'contrast-training.json'), 'utf8')) as ContrastTrainingFile;
  const rows: Row[] = [];
  const add = (text: string, y: HeadLabels, corpus: string, sexism?: number) => {
    const d = denseLabels(y, sexism);
    rows.push({ text: preprocess(text).clean, split: 'train', corpus, jigsaw: false, y: d.y, m: d.m });
  };
  const benign = { overall: 0, insult: 0, identity_attack: 0, profanity: 0 };
  const hate = { overall: 1, identity_attack: 1 };
  for (const g of spec.groups) {
    const women = /\bwomen\b/i.test(g.plural);
    for (const [kind, frames] of Object.entries(spec.benign)) {
      for (const f of frames) add(fillIdentityTemplate(f, g), benign, `contrast_${kind}`, 0);
    }
    for (const f of spec.hateful) add(fillIdentityTemplate(f, g), hate, 'contrast_hateful', women ? 1 : 0);
    for (const f of spec.endorsed) add(fillIdentityTemplate(f, g), hate, 'contrast_endorsed', women ? 1 : 0);
    for (const [kind, frames] of Object.entries(spec.nounBenign ?? {})) {
      for (const f of frames) if (hasNounForms(f, g)) add(fillIdentityTemplate(f, g), benign, `contrast_${kind}`, 0);
    }
  }
  for (const t of spec.benignSentences ?? []) add(t, benign, 'contrast_sentence', 0);
  // Slur homonyms (firewood, cigarettes, the verb "retard", embankments, dog breeding) and in-group
  // reclaimed use.
  for (const t of spec.homonyms) add(t, benign, 'contrast_homonym', 0);
  return rows;
}

/**
 * Rows for the sexism label, from sexism_lasso_v1's own training set (EDOS train, Call me sexist but,
 * HatEval about women, ToxiGen women, ConvAbuse, its training templates) with the other heads
 * masked. That set already leaves out the EDOS train slice `edosStackRow` picks: sexism_lasso_v1 fits
 * its final stack there, so the encoder's logit is out of sample on it. EDOS dev is written for selection only;
 * EDOS test is never read here. `heldOut` holds the EDOS dev and test texts, which no training row
 * of any head may repeat.
 */
export function sexismRows(dataDir: string, decisions: readonly DecisionRow[] = []): { train: Row[]; dev: Row[]; heldOut: Set<string> } {
  const data = loadSexismDataset(dataDir, decisions);
  const masked = (label: number) => ({ y: [...TOXICITY_HEADS.map(() => 0), label], m: [...TOXICITY_HEADS.map(() => 0), 1] });
  const train: Row[] = [];
  data.train.inputs.forEach((input, i) => {
    const source = data.train.sources[i]!;
    train.push({ text: input, split: 'train', corpus: `sexism_${source}`, jigsaw: false, ...masked(data.train.labels[i]!) });
  });
  const dev = data.dev.inputs.map((input, i) => ({
    text: input,
    split: 'val' as Split,
    corpus: 'sexism_edos_dev',
    jigsaw: false,
    ...masked(data.dev.labels[i]!),
  }));
  const heldOut = new Set([...data.dev.inputs, ...data.test.inputs].map(dedupeKey));
  return { train, dev, heldOut };
}

/**
 * The pretrained encoder's tokenizer (uncased WordPiece, 30,522 entries), copied from the installed
 * encoder package into the model folder with its fixed-length padding and truncation removed: the
 * runtime pads per batch and windows long texts itself (`encodeWindows`).
 */
export function copyEncoderTokenizer(encoderDir: string): void {
  const tok = JSON.parse(readFileSync(join(encoderDir, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
  tok.truncation = null;
  tok.padding = null;
  writeFileSync(join(MODEL_DIR, 'tokenizer.json'), JSON.stringify(tok));
  // The package's own config, less the name of the folder it was exported from.
  const { name_or_path: _from, ...config } = JSON.parse(readFileSync(join(encoderDir, 'tokenizer_config.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  writeFileSync(join(MODEL_DIR, 'tokenizer_config.json'), `${JSON.stringify(config, null, 2)}\n`);
}

async function main(): Promise<void> {
  const dataDir = resolve(ROOT, arg('data') ?? process.env.VIGIL_DATA_DIR ?? '../shared/data');
  const t0 = Date.now();
  const decisions = readDecisionCorpora(decisionCorpusFiles());
  if (decisions.length > 0) console.log(`[prepare] ${decisions.length} rows from moderators' decisions (--decisions)`);
  const sexism = sexismRows(dataDir, decisions);
  const toxicity = [...mergedRows(dataDir, decisions), ...identityTrainingRows(), ...contrastTrainingRows()].filter(
    (r) => r.split !== 'train' || !sexism.heldOut.has(dedupeKey(r.text)),
  );
  const heldOutTox = new Set(toxicity.filter((r) => r.split !== 'train').map((r) => dedupeKey(r.text)));
  const rows = [...toxicity, ...sexism.train.filter((r) => !heldOutTox.has(dedupeKey(r.text)))];
  console.log(
    `${rows.length} rows (after dedupe, with identity and contrast training rows and sexism rows) from ${dataDir} in ${Date.now() - t0} ms`,
  );

  const encoderDir = arg('encoder') ?? process.env.VIGIL_ENCODER_DIR;
  if (encoderDir) copyEncoderTokenizer(resolve(encoderDir));
  mkdirSync(WORK_DIR, { recursive: true });

  // The serving tokenizer (transformers.js over the tokenizer.json just written): training ids are serving ids.
  const tok = await loadToxicityTokenizer(MODEL_DIR);
  const unkId = tok.encode('[UNK]', { add_special_tokens: false })[0] ?? -1;
  const allIds = encodeForModel(
    tok,
    rows.map((r) => r.text),
    MAX_LENGTH,
  );
  const files = {
    train: createWriteStream(join(WORK_DIR, 'train.jsonl')),
    val: createWriteStream(join(WORK_DIR, 'val.jsonl')),
    test: createWriteStream(join(WORK_DIR, 'test.jsonl')),
  };
  const stats: Record<string, { rows: number; jigsaw: number; labelled: number[]; positives: number[]; byCorpus: Record<string, number> }> =
    {};
  const lengths: number[] = [];
  let unk = 0;
  let tokens = 0;
  for (const [i, r] of rows.entries()) {
    const ids = allIds[i]!;
    lengths.push(ids.length);
    tokens += ids.length;
    for (const id of ids) if (id === unkId) unk++;
    const s = stats[r.split] ?? { rows: 0, jigsaw: 0, labelled: LABELS.map(() => 0), positives: LABELS.map(() => 0), byCorpus: {} };
    stats[r.split] = s;
    s.rows++;
    if (r.jigsaw) s.jigsaw++;
    s.byCorpus[r.corpus] = (s.byCorpus[r.corpus] ?? 0) + 1;
    r.m.forEach((m, h) => {
      s.labelled[h]! += m;
      if (m && r.y[h]! >= 0.5) s.positives[h]! += 1;
    });
    files[r.split].write(`${JSON.stringify({ t: r.text, ids, y: r.y, m: r.m, c: r.corpus, j: r.jigsaw ? 1 : 0 })}\n`);
  }
  await Promise.all(Object.values(files).map((f) => new Promise<void>((done) => f.end(done))));
  writeIdentityValidation(tok);
  writeContrastValidation(tok);
  writeNounValidation(tok);
  const devIds = encodeForModel(
    tok,
    sexism.dev.map((r) => r.text),
    MAX_LENGTH,
  );
  writeFileSync(
    join(WORK_DIR, 'sexism_dev.jsonl'),
    `${sexism.dev.map((r, i) => JSON.stringify({ t: r.text, ids: devIds[i], y: r.y, m: r.m, c: r.corpus, j: 0 })).join('\n')}\n`,
  );
  console.log(`wrote sexism_dev.jsonl: ${sexism.dev.length} EDOS dev rows (selection only)`);

  lengths.sort((a, b) => a - b);
  const pct = (p: number) => lengths[Math.min(lengths.length - 1, Math.floor(p * lengths.length))];
  const summary = {
    heads: LABELS,
    max_length: MAX_LENGTH,
    unk_rate: unk / tokens,
    token_length: { p50: pct(0.5), p90: pct(0.9), p95: pct(0.95), p99: pct(0.99), mean: tokens / lengths.length },
    splits: stats,
  };
  writeFileSync(join(WORK_DIR, 'prepare-stats.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(JSON.stringify(summary, null, 1));
}

/**
 * Writes the validation-only sentences of a template file (`templates` × `groups`, all labelled 0)
 * to `.work/toxicity/<out>`, each tagged `<tag>:<group>`; `keep` skips a frame a group cannot fill.
 */
function writeTemplateValidation(
  tok: PreTrainedTokenizer,
  file: string,
  out: string,
  tag: string,
  keep: (frame: string, group: IdentityGroup) => boolean = () => true,
): number {
  const spec = JSON.parse(readFileSync(join(TRAINING_DIR, file), 'utf8')) as {
    templates: string[];
    groups: (IdentityGroup & { group: string })[];
  };
  const lines: string[] = [];
  for (const g of spec.groups) {
    for (const f of spec.templates) {
      if (!keep(f, g)) continue;
      const clean = preprocess(fillIdentityTemplate(f, g)).clean;
      lines.push(
        JSON.stringify({
          t: clean,
          ids: encodeForModel(tok, [clean], MAX_LENGTH)[0]!,
          y: LABELS.map(() => 0),
          m: LABELS.map(() => 1),
          c: `${tag}:${g.group}`,
          j: 0,
        }),
      );
    }
  }
  writeFileSync(join(WORK_DIR, out), `${lines.join('\n')}\n`);
  return lines.length;
}

/**
 * `.work/toxicity/identity_val.jsonl`: the validation-only identity sentences (identity-validation.json,
 * disjoint from the training frames and from the evaluation suite). evaluate.ts bounds the share of
 * them a threshold may flag.
 */
function writeIdentityValidation(tok: PreTrainedTokenizer): void {
  const n = writeTemplateValidation(tok, 'identity-validation.json', 'identity_val.jsonl', 'identity_val');
  console.log(`wrote identity_val.jsonl: ${n} validation identity sentences`);
}

/**
 * `.work/toxicity/noun_val.jsonl`: the validation-only sentences that use a group word as a noun
 * (noun-form-validation.json, disjoint from the training frames and the evaluation suites), all
 * labelled 0. train.py reports the share some head flags at its F1 threshold.
 */
function writeNounValidation(tok: PreTrainedTokenizer): void {
  const n = writeTemplateValidation(tok, 'noun-form-validation.json', 'noun_val.jsonl', 'noun_val', hasNounForms);
  console.log(`wrote noun_val.jsonl: ${n} validation noun-form sentences`);
}

/**
 * `.work/toxicity/contrast_val.jsonl`: the validation-only contrast sentences (contrast-cases.ts), with
 * y[0] = 1 for the harmful categories, for train.py's model-only stand-in of the ship check.
 */
export function writeContrastValidation(tok: PreTrainedTokenizer): void {
  const lines = contrastCases().map((c) => {
    const clean = preprocess(c.text).clean;
    return JSON.stringify({
      t: clean,
      ids: encodeForModel(tok, [clean], MAX_LENGTH)[0]!,
      y: LABELS.map((_, i) => (i === 0 && c.harmful ? 1 : 0)),
      m: LABELS.map((_, i) => (i === 0 ? 1 : 0)),
      c: c.category,
      j: 0,
    });
  });
  writeFileSync(join(WORK_DIR, 'contrast_val.jsonl'), `${lines.join('\n')}\n`);
  console.log(`wrote contrast_val.jsonl: ${lines.length} validation contrast sentences`);
}

runIfScript(import.meta.url, main);
