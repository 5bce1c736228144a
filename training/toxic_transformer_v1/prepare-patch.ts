/**
 * Step 1b of `npm run train:toxicity` (after prepare.ts): the rows the warm-start patch (patch.py)
 * adds to the replay of the training split, as token ids from the serving tokenizer. Labels have a
 * seventh column, `self_harm`, after prepare.ts's six (`PATCH_LABELS`).
 *
 * - `patch_train.jsonl` / `patch_val.jsonl`: patch-training.json filled (praise and slogans naming a
 *   group, mentions of slurs, self-harm intent, encouragement and figurative uses, veiled threats and
 *   their lookalikes), split 85 / 15 by a hash of the sentence; validation rows are for selection only.
 * - `selfharm_{train,val,test}.jsonl`: twitter_suicidal_intention.csv (intent 1 / 0 on `self_harm`
 *   only), split by the toxicity corpora's own hash split, so no text is in two splits.
 * - `pairs.jsonl`: counterfactual identity pairs: a training row that names a group (an adjective,
 *   plural or noun form of one of contrast-training.json's groups) and the same row with every such
 *   word swapped for the same form of another group, seeded per row. The pair keeps the row's labels;
 *   patch.py adds a consistency loss between the two texts' logits.
 *
 *   tsx training/toxic_transformer_v1/prepare-patch.ts [--data ../shared/data]
 */
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { preprocess } from '@/lib/moderation/preprocess';
import { encodeForModel } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { resolveDataDir } from '@/training/corpora/data-dir';
import { splitOf } from '@/training/corpora/toxicity-split';
import { parseCsvRecords } from '@/training/ml/csv';
import { fnv1a } from '@/training/ml/hash';
import { fillIdentityTemplate, hasNounForms, type IdentityGroup } from './identity-templates';
import { MODEL_DIR, TRAINING_DIR } from './model-dir';
import { rng } from './obfuscate';
import { MAX_LENGTH, WORK_DIR } from './prepare';
import { runIfScript } from '@/training/ml/run-as-script';

/** prepare.ts's labels plus the self-harm signal the ensemble reads (never an API toxicity head). */
export const PATCH_LABELS = ['overall', 'insult', 'threat', 'identity_attack', 'profanity', 'sexism', 'self_harm'] as const;
type Label = (typeof PATCH_LABELS)[number];
type Labels = Partial<Record<Label, number>>;

interface PatchSpec {
  names: string[];
  praiseWords: string[];
  nounPraise: string[];
  adjPraise: string[];
  slogans: string[];
  nounSlogans: string[];
  mentionFrames: string[];
  mentionSlurs: string[];
  selfHarmIntent: string[];
  selfHarmEncouragement: string[];
  selfHarmFigurative: string[];
  veiledThreats: string[];
  threatLookalikes: string[];
}

interface Sentence {
  text: string;
  labels: Labels;
  corpus: string;
}

const BENIGN: Labels = { overall: 0, insult: 0, threat: 0, identity_attack: 0, profanity: 0, sexism: 0, self_harm: 0 };
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function dense(labels: Labels): { y: number[]; m: number[] } {
  return {
    y: PATCH_LABELS.map((l) => labels[l] ?? 0),
    m: PATCH_LABELS.map((l) => (labels[l] === undefined ? 0 : 1)),
  };
}

/** Fill a frame with a name, a praise word and a group; `{Adj}` is the capitalised adjective. */
function fill(frame: string, g: IdentityGroup, name = '', praise = ''): string {
  return fillIdentityTemplate(frame.replaceAll('{Adj}', capitalise(g.adj)).replaceAll('{Name}', name).replaceAll('{praise}', praise), g);
}

/** Every sentence of patch-training.json, with its labels. Names and praise words are drawn per frame and group. */
export function patchSentences(spec: PatchSpec, groups: readonly IdentityGroup[]): Sentence[] {
  const out: Sentence[] = [];
  const pick = <T>(xs: readonly T[], key: string): T => xs[fnv1a(key) % xs.length]!;
  for (const g of groups) {
    for (const [frames, corpus] of [
      [spec.adjPraise, 'patch_praise'],
      [spec.nounPraise, 'patch_praise'],
      [spec.slogans, 'patch_slogan'],
      [spec.nounSlogans, 'patch_slogan'],
    ] as const) {
      for (const f of frames) {
        if (!hasNounForms(f, g)) continue;
        const name = pick(spec.names, `name|${f}|${g.adj}`);
        const praise = pick(spec.praiseWords, `praise|${f}|${g.adj}`);
        out.push({ text: fill(f, g, name, praise), labels: BENIGN, corpus });
      }
    }
  }
  for (const f of spec.mentionFrames) {
    for (const slur of spec.mentionSlurs) {
      out.push({
        text: f.replaceAll('{slur}', slur),
        labels: { overall: 0, insult: 0, threat: 0, identity_attack: 0, self_harm: 0 },
        corpus: 'patch_mention',
      });
    }
  }
  for (const t of spec.selfHarmIntent)
    out.push({ text: t, labels: { self_harm: 1, threat: 0, identity_attack: 0 }, corpus: 'patch_self_harm' });
  for (const t of spec.selfHarmEncouragement)
    out.push({ text: t, labels: { self_harm: 1, overall: 1, identity_attack: 0 }, corpus: 'patch_self_harm' });
  for (const t of spec.selfHarmFigurative)
    out.push({ text: t, labels: { self_harm: 0, overall: 0, threat: 0, insult: 0, identity_attack: 0 }, corpus: 'patch_figurative' });
  for (const t of spec.veiledThreats)
    out.push({ text: t, labels: { threat: 1, overall: 1, self_harm: 0, identity_attack: 0 }, corpus: 'patch_threat' });
  for (const t of spec.threatLookalikes)
    out.push({ text: t, labels: { threat: 0, overall: 0, insult: 0, self_harm: 0, identity_attack: 0 }, corpus: 'patch_lookalike' });
  return out;
}

/** The group words a corpus row may name, longest first, each with the form it fills. */
type Form = 'adj' | 'plural' | 'noun' | 'nouns';
/** Group words that are mostly something else in corpus text ("every single rule"). */
const AMBIGUOUS = new Set(['single']);
function groupWords(groups: readonly IdentityGroup[]): { word: string; form: Form }[] {
  const words = new Map<string, Form>();
  for (const g of groups) {
    for (const form of ['plural', 'nouns', 'adj', 'noun'] as const) {
      const w = g[form]?.toLowerCase();
      if (w && !words.has(w) && !AMBIGUOUS.has(w)) words.set(w, form);
    }
  }
  return [...words].map(([word, form]) => ({ word, form })).sort((a, b) => b.word.length - a.word.length);
}

/**
 * `text` with every group word swapped for the same form of another group (chosen by `r`: one
 * replacement group per text where it has that form, else another drawn for that word), or
 * undefined when the text names no group. Case of the first letter is kept.
 */
export function swapGroups(text: string, groups: readonly IdentityGroup[], r: () => number): string | undefined {
  const words = groupWords(groups);
  const pattern = new RegExp(`\\b(${words.map((w) => w.word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`, 'gi');
  if (!pattern.test(text)) return undefined;
  pattern.lastIndex = 0;
  const form = new Map(words.map((w) => [w.word, w.form]));
  const target = groups[Math.floor(r() * groups.length)]!;
  let changed = false;
  const out = text.replace(pattern, (m) => {
    const f = form.get(m.toLowerCase())!;
    const other = (g: IdentityGroup) => g[f] !== undefined && g[f]!.toLowerCase() !== m.toLowerCase();
    const candidates = groups.filter(other);
    if (candidates.length === 0) return m;
    const g = other(target) ? target : candidates[Math.floor(r() * candidates.length)]!;
    changed = true;
    const w = g[f]!;
    return m[0] === m[0]!.toUpperCase() ? capitalise(w) : w;
  });
  return changed ? out : undefined;
}

export function row(tok: PreTrainedTokenizer, text: string, labels: Labels, corpus: string): string {
  const clean = preprocess(text).clean;
  const { y, m } = dense(labels);
  return JSON.stringify({ t: clean, ids: encodeForModel(tok, [clean], MAX_LENGTH)[0]!, y, m, c: corpus, j: 0 });
}

export function writeLines(name: string, lines: readonly string[]): void {
  writeFileSync(join(WORK_DIR, name), lines.length ? `${lines.join('\n')}\n` : '');
  console.log(`wrote ${name}: ${lines.length} rows`);
}

async function writePairs(tok: PreTrainedTokenizer, groups: readonly IdentityGroup[]): Promise<void> {
  const lines: string[] = [];
  const input = createInterface({ input: createReadStream(join(WORK_DIR, 'train.jsonl')), crlfDelay: Number.POSITIVE_INFINITY });
  let index = 0;
  for await (const line of input) {
    const k = index++;
    if (!line) continue;
    const r = JSON.parse(line) as { t: string; y: number[]; m: number[]; c: string };
    // Template rows already come in every group; corpus rows are what carries the learned bias.
    if (r.c.startsWith('identity_') || r.c.startsWith('contrast_')) continue;
    const swapped = swapGroups(r.t, groups, rng(fnv1a(`swap|${r.t}`)));
    if (swapped === undefined) continue;
    const clean = preprocess(swapped).clean;
    lines.push(JSON.stringify({ k, t2: clean, ids2: encodeForModel(tok, [clean], MAX_LENGTH)[0]!, y: [...r.y, 0], m: [...r.m, 0] }));
  }
  writeLines('pairs.jsonl', lines);
}

function writeSelfHarm(tok: PreTrainedTokenizer, dataDir: string): void {
  const table = parseCsvRecords(readFileSync(join(dataDir, 'text', 'twitter_suicidal_intention.csv')));
  const files: Record<'train' | 'val' | 'test', string[]> = { train: [], val: [], test: [] };
  const seen = new Set<string>();
  for (const rec of table.rows) {
    const text = preprocess(rec.tweet ?? '').clean;
    if (!text || seen.has(text)) continue;
    seen.add(text);
    const intent = Number(rec.intention) === 1 ? 1 : 0;
    files[splitOf(text)].push(row(tok, text, { self_harm: intent }, 'twitter_self_harm'));
  }
  for (const split of ['train', 'val', 'test'] as const) writeLines(`selfharm_${split}.jsonl`, files[split]);
}

async function main(): Promise<void> {
  const dataDir = resolveDataDir();
  const tok = await loadToxicityTokenizer(MODEL_DIR);
  const spec = JSON.parse(readFileSync(join(TRAINING_DIR, 'patch-training.json'), 'utf8')) as PatchSpec;
  const { groups } = JSON.parse(readFileSync(join(TRAINING_DIR, 'contrast-training.json'), 'utf8')) as { groups: IdentityGroup[] };
  const train: string[] = [];
  const val: string[] = [];
  for (const s of patchSentences(spec, groups)) {
    (fnv1a(`patch-split|${s.text}`) % 100 < 15 ? val : train).push(row(tok, s.text, s.labels, s.corpus));
  }
  writeLines('patch_train.jsonl', train);
  writeLines('patch_val.jsonl', val);
  writeSelfHarm(tok, dataDir);
  await writePairs(tok, groups);
}

runIfScript(import.meta.url, main);
