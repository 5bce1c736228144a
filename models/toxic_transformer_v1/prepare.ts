/**
 * Step 1 of `npm run train:toxicity`: corpora -> normalised, deduplicated, split, label-masked rows;
 * a word-level + WordPiece vocabulary with GloVe initial vectors; token ids from the SERVING tokenizer
 * (`loadToxicityTokenizer` + `encodeForModel`, the functions the server and the browser Worker call).
 * Writes `.work/toxicity/` (train/val/test/identity_val JSONL, glove_init.f32, prepare-stats.json) and
 * the committed `tokenizer.json` / `tokenizer_config.json`.
 *
 *   tsx models/toxic_transformer_v1/prepare.ts [--data ../shared/data]
 *
 * Splits are fixed by a hash of the normalised text (duplicates across corpora share a split and
 * are merged), so they do not depend on file order or on which corpora are present.
 */
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { preprocess } from '@/lib/moderation/preprocess';
import { TOXICITY_HEADS } from '@/lib/moderation/types';
import { encodeForModel } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { GLOVE_DIM, loadGlove } from '../glove';
import { readCorpora, denseLabels, JIGSAW_CORPORA, type HeadLabels } from './corpora';
import { fnv1a, rng, leetspeak, insertSpaces, stripPunctuation } from './obfuscate';
import { fillIdentityTemplate, type IdentityGroup } from './identity-templates';
import { countWords, learnWordPiece, SPECIAL_TOKENS, tokenizerJson, tokenizerConfig } from './wordpiece';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
export const WORK_DIR = join(ROOT, '.work/toxicity');
export const MAX_LENGTH = 128;
const SPLIT_SALT = 'vigil-toxicity-v1|';
/** Per mille: [0, 100) test, [100, 160) validation, rest train. */
const TEST_PER_MILLE = 100;
const VAL_PER_MILLE = 160;
/** Subword pieces learned from the training text (alphabet + merges): the fallback for unknown words. */
const PIECE_VOCAB = 8000;
/** Whole words kept from GloVe's frequency order even if training never saw them (embeddings frozen). */
const GLOVE_TOP = 40000;
/** Training words outside GloVe (slang, obfuscations, names) need this many occurrences. */
const MIN_NON_GLOVE_COUNT = 5;
const WORD_RE = /^[a-z][a-z0-9'-]*$/;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export type Split = 'train' | 'val' | 'test';
export function dedupeKey(clean: string): string {
  return stripPunctuation(clean) || clean.toLowerCase();
}
export function splitOf(clean: string): Split {
  const b = fnv1a(SPLIT_SALT + dedupeKey(clean)) % 1000;
  return b < TEST_PER_MILLE ? 'test' : b < VAL_PER_MILLE ? 'val' : 'train';
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
export function mergedRows(dataDir: string): Row[] {
  const merged = new Map<string, { clean: string; corpora: string[]; lowercased: boolean; sums: number[]; counts: number[] }>();
  for (const row of readCorpora(dataDir)) {
    const clean = preprocess(row.text).clean;
    if (clean.length === 0) continue;
    const key = dedupeKey(clean);
    const { y, m } = denseLabels(row.labels);
    let g = merged.get(key);
    if (!g) {
      g = { clean, corpora: [], lowercased: row.lowercased, sums: [0, 0, 0, 0, 0], counts: [0, 0, 0, 0, 0] };
      merged.set(key, g);
    } else if (g.lowercased && !row.lowercased) {
      // Prefer the cased, punctuated copy of a duplicate.
      g.clean = clean;
      g.lowercased = false;
    }
    if (!g.corpora.includes(row.corpus)) g.corpora.push(row.corpus);
    for (let h = 0; h < 5; h++) {
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
  const aug = JSON.parse(readFileSync(join(HERE, 'identity-augmentation.json'), 'utf8')) as { frames: string[]; groups: IdentityGroup[] };
  const contrast = JSON.parse(readFileSync(join(HERE, 'identity-contrast.json'), 'utf8')) as ContrastFile;
  const rows: Row[] = [];
  const addText = (text: string, y: HeadLabels, corpus: string) => {
    const d = denseLabels(y);
    rows.push({ text: preprocess(text).clean, split: 'train', corpus, jigsaw: false, y: d.y, m: d.m });
  };
  const add = (frame: string, g: IdentityGroup, y: HeadLabels, corpus: string) => addText(fillIdentityTemplate(frame, g), y, corpus);
  const zero = { overall: 0, insult: 0, threat: 0, identity_attack: 0, profanity: 0 };
  for (const g of aug.groups) {
    for (const f of aug.frames) add(f, g, zero, 'identity_neutral');
    for (const f of contrast.benign) add(f, g, zero, 'identity_counter');
    // Hateful frames: insult and profanity are left unlabelled (a slur-free dehumanising sentence is
    // not necessarily an insult to the reader).
    for (const t of contrast.toxic) add(t.frame, g, { overall: 1, identity_attack: 1, threat: t.threat }, 'identity_hate');
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

/**
 * Vocabulary, in id order: special tokens, the alphabet and WordPiece merges learned from the training
 * text, then whole words (GloVe's most frequent words, and training words outside GloVe that recur).
 * Greedy longest-match WordPiece reads a whole word as one token whenever it is in the vocabulary, so
 * every such word gets its own GloVe-initialised embedding; anything else falls back to pieces.
 */
export function buildVocabulary(trainTexts: readonly string[], gloveWords: readonly string[], gloveIndex: Map<string, number>): string[] {
  const counts = countWords(trainTexts);
  const vocab = learnWordPiece(counts, { vocabSize: PIECE_VOCAB, limitAlphabet: 1000, minFrequency: 2 });
  const have = new Set(vocab);
  const push = (w: string) => {
    if (!have.has(w)) {
      have.add(w);
      vocab.push(w);
    }
  };
  for (const w of gloveWords.slice(0, GLOVE_TOP)) if (WORD_RE.test(w)) push(w);
  const seen = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [w, c] of seen) {
    if (!WORD_RE.test(w) || w.length > 30) continue;
    if (gloveIndex.has(w) ? c >= 2 : c >= MIN_NON_GLOVE_COUNT) push(w);
  }
  return vocab;
}

async function main(): Promise<void> {
  const dataDir = resolve(ROOT, arg('data') ?? process.env.VIGIL_DATA_DIR ?? '../shared/data');
  const t0 = Date.now();
  const rows = [...mergedRows(dataDir), ...identityTrainingRows()];
  console.log(`${rows.length} rows (after dedupe, with identity training rows) from ${dataDir} in ${Date.now() - t0} ms`);

  const glove = loadGlove();
  const vocab = buildVocabulary(
    rows.filter((r) => r.split === 'train').map((r) => r.text),
    glove.words,
    glove.index,
  );
  console.log(`vocabulary: ${vocab.length} entries`);
  const tokJson = tokenizerJson(vocab);
  const tokConfig = tokenizerConfig(MAX_LENGTH);
  writeFileSync(join(HERE, 'tokenizer.json'), JSON.stringify(tokJson));
  writeFileSync(join(HERE, 'tokenizer_config.json'), `${JSON.stringify(tokConfig, null, 2)}\n`);

  // Initial word vectors: GloVe for whole words; NaN marks "no vector" (train.py draws those at random).
  mkdirSync(WORK_DIR, { recursive: true });
  const init = new Float32Array(vocab.length * GLOVE_DIM).fill(Number.NaN);
  let covered = 0;
  vocab.forEach((t, id) => {
    if (id < SPECIAL_TOKENS.length || t.startsWith('##')) return;
    const g = glove.index.get(t);
    if (g === undefined) return;
    init.set(glove.vectors.subarray(g * GLOVE_DIM, (g + 1) * GLOVE_DIM), id * GLOVE_DIM);
    covered++;
  });
  writeFileSync(join(WORK_DIR, 'glove_init.f32'), Buffer.from(init.buffer));
  console.log(`GloVe vectors for ${covered} of ${vocab.length} entries`);

  // The serving tokenizer (transformers.js over the tokenizer.json just written): training ids are serving ids.
  const tok = await loadToxicityTokenizer(HERE);
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
  let gloveTokens = 0;
  for (const [i, r] of rows.entries()) {
    const ids = allIds[i]!;
    lengths.push(ids.length);
    tokens += ids.length;
    for (const id of ids) {
      if (id === 1) unk++;
      if (!Number.isNaN(init[id * GLOVE_DIM]!)) gloveTokens++;
    }
    const s = stats[r.split] ?? { rows: 0, jigsaw: 0, labelled: [0, 0, 0, 0, 0], positives: [0, 0, 0, 0, 0], byCorpus: {} };
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

  lengths.sort((a, b) => a - b);
  const pct = (p: number) => lengths[Math.min(lengths.length - 1, Math.floor(p * lengths.length))];
  const summary = {
    heads: TOXICITY_HEADS,
    vocab_size: vocab.length,
    glove_initialised: covered,
    max_length: MAX_LENGTH,
    unk_rate: unk / tokens,
    glove_token_share: gloveTokens / tokens,
    token_length: { p50: pct(0.5), p90: pct(0.9), p95: pct(0.95), p99: pct(0.99), mean: tokens / lengths.length },
    splits: stats,
  };
  writeFileSync(join(WORK_DIR, 'prepare-stats.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(JSON.stringify(summary, null, 1));
}

/**
 * `.work/toxicity/identity_val.jsonl`: the validation-only identity sentences (identity-validation.json,
 * disjoint from the training frames and from the evaluation suite). evaluate.ts bounds the share of
 * them a threshold may flag.
 */
function writeIdentityValidation(tok: PreTrainedTokenizer): void {
  const valT = JSON.parse(readFileSync(join(HERE, 'identity-validation.json'), 'utf8')) as {
    templates: string[];
    groups: (IdentityGroup & { group: string })[];
  };
  const lines: string[] = [];
  for (const g of valT.groups) {
    for (const f of valT.templates) {
      const clean = preprocess(fillIdentityTemplate(f, g)).clean;
      lines.push(
        JSON.stringify({
          t: clean,
          ids: encodeForModel(tok, [clean], MAX_LENGTH)[0]!,
          y: [0, 0, 0, 0, 0],
          m: [1, 1, 1, 1, 1],
          c: `identity_val:${g.group}`,
          j: 0,
        }),
      );
    }
  }
  writeFileSync(join(WORK_DIR, 'identity_val.jsonl'), `${lines.join('\n')}\n`);
  console.log(`wrote identity_val.jsonl: ${lines.length} validation identity sentences`);
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
