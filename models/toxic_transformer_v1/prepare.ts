/**
 * Step 1 of `npm run train:toxicity`: corpora -> normalised, deduplicated, split, label-masked rows;
 * learns the WordPiece vocabulary from the TRAIN split; tokenises every row with the serving
 * tokenizer (`lib/moderation/toxicity/toxicity-core.ts`) and writes JSONL to `.work/toxicity/`.
 *
 *   tsx models/toxic_transformer_v1/prepare.ts [--data ../shared/data] [--vocab 16000]
 *
 * Splits are fixed by a hash of the normalised text (duplicates across corpora share a split and
 * are merged), so they do not depend on file order or on which corpora are present.
 */
import { mkdirSync, writeFileSync, createWriteStream, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { preprocess } from '@/lib/moderation/preprocess';
import { TOXICITY_HEADS } from '@/lib/moderation/types';
import { createToxicityTokenizer, encodeText } from '@/lib/moderation/toxicity/toxicity-core';
import { readCorpora, denseLabels, JIGSAW_CORPORA, type HeadLabels } from './corpora';
import { fnv1a, rng, leetspeak, insertSpaces, stripPunctuation } from './obfuscate';
import { fillIdentityTemplate, type IdentityGroup } from './identity-templates';
import { countWords, learnWordPiece, tokenizerJson, tokenizerConfig } from './wordpiece';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
export const WORK_DIR = join(ROOT, '.work/toxicity');
export const MAX_LENGTH = 128;
const SPLIT_SALT = 'vigil-toxicity-v1|';
/** Per mille: [0, 100) test, [100, 160) validation, rest train. */
const TEST_PER_MILLE = 100;
const VAL_PER_MILLE = 160;

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

interface Merged {
  clean: string;
  corpora: string[];
  lowercased: boolean;
  sums: number[];
  counts: number[];
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

async function main(): Promise<void> {
  const dataDir = resolve(ROOT, arg('data') ?? process.env.VIGIL_DATA_DIR ?? '../shared/data');
  const vocabSize = Number(arg('vocab') ?? 16000);
  const t0 = Date.now();
  const raw = readCorpora(dataDir);
  console.log(`read ${raw.length} labelled rows from ${dataDir} in ${Date.now() - t0} ms`);

  const merged = new Map<string, Merged>();
  for (const row of raw) {
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
  console.log(`${merged.size} unique texts after dedupe`);

  interface Out {
    text: string;
    split: Split;
    corpus: string;
    jigsaw: boolean;
    y: number[];
    m: number[];
  }
  const rows: Out[] = [];
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

  const t1 = Date.now();
  const vocab = learnWordPiece(
    countWords(rows.filter((r) => r.split === 'train').map((r) => r.text)),
    { vocabSize, limitAlphabet: 1000, minFrequency: 2 },
  );
  console.log(`learned ${vocab.length} word pieces in ${Date.now() - t1} ms`);
  const tokJson = tokenizerJson(vocab);
  const tokConfig = tokenizerConfig(MAX_LENGTH);
  writeFileSync(join(HERE, 'tokenizer.json'), JSON.stringify(tokJson));
  writeFileSync(join(HERE, 'tokenizer_config.json'), `${JSON.stringify(tokConfig, null, 2)}\n`);

  const tokenizer = createToxicityTokenizer(tokJson, tokConfig);
  mkdirSync(WORK_DIR, { recursive: true });
  const files = {
    train: createWriteStream(join(WORK_DIR, 'train.jsonl')),
    val: createWriteStream(join(WORK_DIR, 'val.jsonl')),
    test: createWriteStream(join(WORK_DIR, 'test.jsonl')),
  };
  const stats: Record<string, { rows: number; jigsaw: number; labelled: number[]; positives: number[]; byCorpus: Record<string, number> }> = {};
  const lengths: number[] = [];
  let unk = 0;
  let tokens = 0;
  const t2 = Date.now();
  for (const r of rows) {
    const ids = encodeText(tokenizer, r.text, MAX_LENGTH);
    lengths.push(ids.length);
    tokens += ids.length;
    for (const id of ids) if (id === 1) unk++;
    const s = (stats[r.split] ??= { rows: 0, jigsaw: 0, labelled: [0, 0, 0, 0, 0], positives: [0, 0, 0, 0, 0], byCorpus: {} });
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
  lengths.sort((a, b) => a - b);
  const pct = (p: number) => lengths[Math.min(lengths.length - 1, Math.floor(p * lengths.length))];
  const summary = {
    heads: TOXICITY_HEADS,
    vocab_size: vocab.length,
    max_length: MAX_LENGTH,
    unk_rate: unk / tokens,
    token_length: { p50: pct(0.5), p90: pct(0.9), p95: pct(0.95), p99: pct(0.99), mean: tokens / lengths.length },
    splits: stats,
  };
  writeFileSync(join(WORK_DIR, 'prepare-stats.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`tokenised ${rows.length} rows in ${Date.now() - t2} ms`);
  console.log(JSON.stringify(summary, null, 1));
}

/** Hand-written texts for the tokenizer parity fixture: obfuscated, emoji, non-Latin scripts. */
export const PARITY_SAMPLES = [
  'You are an idiot',
  'Yоu аre аn іdiоt', // Cyrillic homoglyphs
  'y o u  a r e  a n  i d i o t',
  'f*ck y0u, 1d10t!!!',
  'id\u200biot and mor\u200con',
  'I will find you and k1ll you',
  '🤬🤬 you absolute clown 🤡🤡',
  'Ты идиот, понятно?',
  'Привет, как дела?',
  '你是个白痴',
  '今日はいい天気ですね',
  'مرحبا بكم في موقعنا',
  'नमस्ते दोस्तों',
  'I’m a PROUD gay man!!! see https://example.com/x?y=1 @bob_smith',
  'ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ',
  'naïve café résumé — “quotes” and ‘apostrophes’',
  'Ⓢⓣⓤⓟⓘⓓ 𝓼𝓽𝓾𝓹𝓲𝓭',
  '',
  '   ',
  'a'.repeat(300),
  'word '.repeat(200),
];

const CATEGORIES: Record<string, RegExp> = {
  emoji: /\p{Extended_Pictographic}/u,
  cyrillic: /\p{Script=Cyrillic}/u,
  cjk: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u,
  arabic: /\p{Script=Arabic}/u,
  leetspeak: /\b[a-z]+[013457@$][a-z]+\b/i,
  spaced: /(?:\b\p{L} ){4,}/u,
  placeholder: /\[url\]|@user/,
  accents: /[àáâäçèéêëìíîïñòóôöùúûü]/i,
};

/**
 * Writes `tokenizer-parity.json` (committed): sample rows exactly as written to the training files
 * (clean text + ids) per category, plus hand-written raw texts encoded through the serving path
 * (`preprocess(raw).clean` -> `encodeText`). The vitest parity test re-encodes them.
 */
export function writeParityFixture(): void {
  const tokJson = JSON.parse(readFileSync(join(HERE, 'tokenizer.json'), 'utf8')) as object;
  const tokConfig = JSON.parse(readFileSync(join(HERE, 'tokenizer_config.json'), 'utf8')) as object;
  const tokenizer = createToxicityTokenizer(tokJson, tokConfig);
  const training: { category: string; split: string; clean: string; ids: number[] }[] = [];
  for (const split of ['train', 'test'] as const) {
    const lines = readFileSync(join(WORK_DIR, `${split}.jsonl`), 'utf8').split('\n');
    const taken: Record<string, number> = {};
    let truncated = 0;
    for (const line of lines) {
      if (!line) continue;
      const r = JSON.parse(line) as { t: string; ids: number[] };
      for (const [cat, re] of Object.entries(CATEGORIES)) {
        if ((taken[cat] ?? 0) < 4 && re.test(r.t) && r.t.length < 400) {
          taken[cat] = (taken[cat] ?? 0) + 1;
          training.push({ category: cat, split, clean: r.t, ids: r.ids });
        }
      }
      if (truncated < 2 && r.ids.length === MAX_LENGTH) {
        truncated++;
        training.push({ category: 'truncated', split, clean: r.t, ids: r.ids });
      }
    }
  }
  const samples = PARITY_SAMPLES.map((raw) => ({ raw, ids: encodeText(tokenizer, preprocess(raw).clean, MAX_LENGTH) }));
  writeFileSync(
    join(HERE, 'tokenizer-parity.json'),
    `${JSON.stringify({ max_length: MAX_LENGTH, training_rows: training, samples }, null, 1)}\n`,
  );
  console.log(`wrote tokenizer-parity.json: ${training.length} training rows, ${samples.length} samples`);
}

interface AugmentationFile {
  frames: string[];
  groups: IdentityGroup[];
}

/**
 * Writes `.work/toxicity/identity_aug.jsonl`: the neutral identity sentences of
 * `identity-augmentation.json`, every head labelled 0, tokenised like every other row. train.py mixes
 * them into its fine-tuning phase (identity-term debiasing; see README).
 */
export function writeIdentityAugmentation(): void {
  const aug = JSON.parse(readFileSync(join(HERE, 'identity-augmentation.json'), 'utf8')) as AugmentationFile;
  const tokJson = JSON.parse(readFileSync(join(HERE, 'tokenizer.json'), 'utf8')) as object;
  const tokConfig = JSON.parse(readFileSync(join(HERE, 'tokenizer_config.json'), 'utf8')) as object;
  const tokenizer = createToxicityTokenizer(tokJson, tokConfig);
  const lines: string[] = [];
  for (const g of aug.groups) {
    for (const f of aug.frames) {
      const text = fillIdentityTemplate(f, g);
      const clean = preprocess(text).clean;
      const ids = encodeText(tokenizer, clean, MAX_LENGTH);
      lines.push(JSON.stringify({ t: clean, ids, y: [0, 0, 0, 0, 0], m: [1, 1, 1, 1, 1], c: 'identity_aug', j: 0 }));
    }
  }
  writeFileSync(join(WORK_DIR, 'identity_aug.jsonl'), `${lines.join('\n')}\n`);
  console.log(`wrote identity_aug.jsonl: ${lines.length} neutral identity sentences`);
  // Validation-only templates (finetune.py's selection, evaluate.ts's threshold constraint).
  const valT = JSON.parse(readFileSync(join(HERE, 'identity-validation.json'), 'utf8')) as { templates: string[]; groups: (IdentityGroup & { group: string })[] };
  const valLines: string[] = [];
  for (const g of valT.groups) {
    for (const f of valT.templates) {
      const clean = preprocess(fillIdentityTemplate(f, g)).clean;
      const ids = encodeText(tokenizer, clean, MAX_LENGTH);
      valLines.push(JSON.stringify({ t: clean, ids, y: [0, 0, 0, 0, 0], m: [1, 1, 1, 1, 1], c: `identity_val:${g.group}`, j: 0 }));
    }
  }
  writeFileSync(join(WORK_DIR, 'identity_val.jsonl'), `${valLines.join('\n')}\n`);
  console.log(`wrote identity_val.jsonl: ${valLines.length} validation identity sentences`);
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  if (process.argv.includes('--parity-only')) writeParityFixture();
  else if (process.argv.includes('--identity-aug-only')) writeIdentityAugmentation();
  else {
    main()
      .then(() => {
        writeParityFixture();
        writeIdentityAugmentation();
      })
      .catch((e: unknown) => {
        console.error(e);
        process.exit(1);
      });
  }
}
export type { HeadLabels };
