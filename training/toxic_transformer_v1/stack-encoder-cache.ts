/**
 * The encoder's side of the lexical stack: for each text, every window the serving runtime reads
 * (its head logits and where it lies in the text), computed once per encoder and cached under
 * `.work/toxicity/stack-cache/`, so refitting the stack or re-setting thresholds costs no forward pass.
 *
 * The forward pass is the serving one (`loadToxicityModel`, transformers.js over onnxruntime-node,
 * windows of `max_length` tokens every `window_stride`), with no stack applied, so the logits are the
 * ones the stack reads at serving time. A cache is keyed by the encoder's artifact id and a hash of
 * the texts, so new weights or new rows are scored afresh.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { charSpansOfTokens, encodeWindows } from '@/lib/moderation/toxicity/encode-for-model';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { TOXICITY_HEADS } from '@/lib/moderation/types';
import { fnv1a } from '@/training/ml/hash';
import { MODEL_DIR } from './model-dir';
import { singleFileSha256 } from './onnx-external-data';

/** One window of a text as the encoder read it. */
export interface EncoderWindow {
  /** Head logits in TOXICITY_HEADS order. */
  z: number[];
  /** `[start, end)` in the text: what the window covers, for the lexical model to read. */
  span: [number, number];
}

/** Keeps logits finite for a score of exactly 0 or 1 (a logit beyond ±36 in float64). */
const logit = (p: number) => {
  const q = Math.min(1 - 1e-16, Math.max(1e-16, p));
  return Math.log(q / (1 - q));
};

export function encoderArtifact(dir = MODEL_DIR): string {
  return singleFileSha256(join(dir, 'onnx/model_quantized.onnx')).slice(0, 12);
}

/**
 * The windows of each text (`clean` strings, as the rows store them), from the cache when it holds
 * this encoder's pass over exactly these texts, else from a forward pass that is then cached.
 */
export async function encoderWindows(
  workDir: string,
  name: string,
  texts: readonly string[],
  log: (line: string) => void = console.log,
): Promise<EncoderWindow[][]> {
  const artifact = encoderArtifact();
  const key = `${artifact}|${texts.length}|${fnv1a(texts.join('\u0000'))}`;
  const dir = join(workDir, 'stack-cache');
  const file = join(dir, `${name}-${artifact}.json`);
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { key: string; windows: EncoderWindow[][] };
    if (cached.key === key) return cached.windows;
  }
  const t0 = Date.now();
  const model = await loadToxicityModel({ dir: MODEL_DIR, intraOpThreads: 2, maxBatch: 32, lexicalStack: false });
  const { maxLength, windowStride } = model.config;
  const tokenizer = await loadToxicityTokenizer(MODEL_DIR);
  const out: EncoderWindow[][] = [];
  try {
    for (let s = 0; s < texts.length; s += 256) {
      const part = texts.slice(s, s + 256);
      const detail = await model.scoreDetailed(part.map((t) => ({ original: t, visible: t, clean: t })));
      detail.forEach((d, i) => {
        const text = part[i]!;
        const windows = d.windows ?? [d.scores];
        let spans: [number, number][] = [[0, text.length]];
        if (windows.length > 1) {
          const { tokenSpans } = encodeWindows(tokenizer, [text], maxLength, windowStride);
          const total = Math.max(...tokenSpans.map((t) => t[1]));
          spans = charSpansOfTokens(tokenizer, text, total, tokenSpans);
        }
        if (spans.length !== windows.length) throw new Error(`text ${s + i}: ${windows.length} windows but ${spans.length} spans`);
        out.push(windows.map((w, k) => ({ z: TOXICITY_HEADS.map((h) => logit(w[h])), span: spans[k]! })));
      });
      if ((s / 256) % 10 === 0) log(`[stack] ${name}: ${Math.min(texts.length, s + 256)}/${texts.length} texts (${Date.now() - t0} ms)`);
    }
  } finally {
    await model.dispose();
  }
  log(`[stack] ${name}: encoder pass over ${texts.length} texts in ${Date.now() - t0} ms`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify({ key, windows: out }));
  return out;
}
