/**
 * Step 1 of `npm run train:toxicity-self-harm`: self-harm-head.json's written sentences as token ids
 * from the serving tokenizer, for the refit of the model's `self_harm` output (self_harm_head.py).
 * Intent and encouragement are 1 on `self_harm`, figurative and safe uses and everyday plans 0; 15 %
 * of the sentences, by a hash of the sentence, are validation rows (selection only).
 * Writes `.work/toxicity/selfharm_head_{train,val}.jsonl`, in prepare-patch.ts's row format, and
 * `selfharm_figurative_val.jsonl`: self-harm-validation.json filled (validation only, all 0 on
 * `self_harm`: figurative wording, fiction, recovery, support and news that only look like self-harm).
 *
 *   tsx training/toxic_transformer_v1/prepare-self-harm-head.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { fnv1a } from '@/training/ml/hash';
import { MODEL_DIR, TRAINING_DIR } from './model-dir';
import { row, writeLines } from './prepare-patch';
import { runIfScript } from '@/training/ml/run-as-script';

export interface SelfHarmHeadSpec {
  intent: string[];
  statements: string[];
  plans: string[];
  when: string[];
  encouragement: string[];
  encouragementFrames: string[];
  encouragementActs: string[];
  safe: string[];
  everydayPlans: string[];
}

/** Every sentence the spec fills, with its `self_harm` label, each text once. */
export function selfHarmHeadSentences(spec: SelfHarmHeadSpec): { text: string; selfHarm: 0 | 1 }[] {
  const compose = (heads: readonly string[], tails: readonly string[]) => heads.flatMap((h) => tails.map((t) => `${h} ${t}.`));
  const fill = spec.encouragementFrames.flatMap((f) => spec.encouragementActs.map((act) => f.replaceAll('{act}', act)));
  const positives = [...spec.intent, ...spec.statements, ...compose(spec.plans, spec.when), ...spec.encouragement, ...fill];
  const negatives = [...spec.safe, ...compose(spec.everydayPlans, spec.when)];
  const seen = new Set<string>();
  const out: { text: string; selfHarm: 0 | 1 }[] = [];
  for (const [texts, selfHarm] of [
    [positives, 1],
    [negatives, 0],
  ] as const) {
    for (const text of texts) {
      if (seen.has(text)) continue;
      seen.add(text);
      out.push({ text, selfHarm });
    }
  }
  return out;
}

export interface SelfHarmValidationSpec {
  frames: string[];
  chores: string[];
  treats: string[];
  feelings: string[];
  lines: string[];
}

/** self-harm-validation.json's sentences: every frame filled with every filler of its slot, then the lines. */
export function selfHarmValidationSentences(spec: SelfHarmValidationSpec): string[] {
  const slots: Record<string, readonly string[]> = { chore: spec.chores, treat: spec.treats, feeling: spec.feelings };
  const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const filled = spec.frames.flatMap((frame) => {
    const slot = /\{(\w+)\}/.exec(frame)?.[1]?.toLowerCase();
    const fillers = slot ? slots[slot] : undefined;
    if (!slot || !fillers) throw new Error(`self-harm-validation.json: frame without a known slot: ${frame}`);
    return fillers.map((f) => frame.replace(`{${slot}}`, f).replace(`{${capitalise(slot)}}`, capitalise(f)));
  });
  return [...new Set([...filled, ...spec.lines])];
}

async function main(): Promise<void> {
  const tok = await loadToxicityTokenizer(MODEL_DIR);
  const spec = JSON.parse(readFileSync(join(TRAINING_DIR, 'self-harm-head.json'), 'utf8')) as SelfHarmHeadSpec;
  const train: string[] = [];
  const val: string[] = [];
  for (const s of selfHarmHeadSentences(spec)) {
    (fnv1a(`self-harm-head-split|${s.text}`) % 100 < 15 ? val : train).push(row(tok, s.text, { self_harm: s.selfHarm }, 'self_harm_head'));
  }
  writeLines('selfharm_head_train.jsonl', train);
  writeLines('selfharm_head_val.jsonl', val);
  const validation = JSON.parse(readFileSync(join(TRAINING_DIR, 'self-harm-validation.json'), 'utf8')) as SelfHarmValidationSpec;
  writeLines(
    'selfharm_figurative_val.jsonl',
    selfHarmValidationSentences(validation).map((text) => row(tok, text, { self_harm: 0 }, 'self_harm_validation')),
  );
}

runIfScript(import.meta.url, main);
