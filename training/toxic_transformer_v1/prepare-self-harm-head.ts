/**
 * Step 1 of `npm run train:toxicity-self-harm`: self-harm-head.json's written sentences as token ids
 * from the serving tokenizer, for the refit of the model's `self_harm` output (self_harm_head.py).
 * Intent and encouragement are 1 on `self_harm`, figurative and safe uses and everyday plans 0; 15 %
 * of the sentences, by a hash of the sentence, are validation rows (selection only).
 * Writes `.work/toxicity/selfharm_head_{train,val}.jsonl`, in prepare-patch.ts's row format.
 *
 *   tsx training/toxic_transformer_v1/prepare-self-harm-head.ts
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadToxicityTokenizer } from '@/lib/moderation/toxicity/load-toxicity-tokenizer';
import { fnv1a } from '@/training/ml/hash';
import { MODEL_DIR, TRAINING_DIR } from './model-dir';
import { row, writeLines } from './prepare-patch';

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
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
