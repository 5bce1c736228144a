/**
 * How often the served model flags the noun-form validation sentences (noun-form-validation.json:
 * friendly and neutral sentences that use a group word as a noun, "a gay", "Blacks", all benign),
 * through the serving runtime at the folder's served thresholds: a sentence is flagged when a head
 * that flags a verdict on its own reaches its threshold (verdict-flags.ts).
 *
 *   npx tsx training/toxic_transformer_v1/noun-form-flags.ts [--model-dir DIR] [--json]
 *
 * Validation only: no frame is shared with a training template or the evaluation suites
 * (scripts/eval-text/template-overlap.ts normalises frames the same way for the suites).
 * evaluate.ts records the same measure in metrics.json (`noun_form_validation`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { preprocess } from '@/lib/moderation/preprocess';
import { loadToxicityModel } from '@/lib/moderation/toxicity/load-toxicity-model';
import type { ToxicityScores } from '@/lib/moderation/types';
import { fillIdentityTemplate, hasNounForms, type IdentityGroup } from './identity-templates';
import { MODEL_DIR, TRAINING_DIR } from './model-dir';
import { FLAGGING_HEADS } from './verdict-flags';
import { runIfScript } from '@/training/ml/run-as-script';

interface NounFormFile {
  templates: string[];
  groups: (IdentityGroup & { group: string })[];
}

/** Every filled sentence with its group (only the groups that give the forms a template names). */
export function nounFormSentences(file: NounFormFile = readNounFormFile()): { group: string; text: string }[] {
  return file.groups.flatMap((g) =>
    file.templates.filter((t) => hasNounForms(t, g)).map((t) => ({ group: g.group, text: fillIdentityTemplate(t, g) })),
  );
}

function readNounFormFile(): NounFormFile {
  return JSON.parse(readFileSync(join(TRAINING_DIR, 'noun-form-validation.json'), 'utf8')) as NounFormFile;
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

export interface NounFormFlags {
  sentences: number;
  flag_rate: number;
  max_group_rate: number;
  per_group: Record<string, number>;
  /** Sentences each head reaches its threshold on (several heads may share one). */
  by_head: Record<string, number>;
}

/** The share of noun-form sentences flagged at `thresholds`, overall and per group. */
export function nounFormFlags(
  sentences: readonly { group: string }[],
  scores: readonly ToxicityScores[],
  thresholds: ToxicityScores,
): NounFormFlags {
  const groups = new Map<string, { n: number; flagged: number }>();
  const byHead = Object.fromEntries(FLAGGING_HEADS.map((h) => [h, 0])) as Record<string, number>;
  let flagged = 0;
  sentences.forEach((s, i) => {
    const hits = FLAGGING_HEADS.filter((h) => scores[i]![h] >= thresholds[h]);
    for (const h of hits) byHead[h]!++;
    const g = groups.get(s.group) ?? { n: 0, flagged: 0 };
    g.n++;
    if (hits.length > 0) {
      g.flagged++;
      flagged++;
    }
    groups.set(s.group, g);
  });
  const perGroup = Object.fromEntries([...groups].map(([k, v]) => [k, r4(v.flagged / v.n)]));
  return {
    sentences: sentences.length,
    flag_rate: r4(flagged / Math.max(1, sentences.length)),
    max_group_rate: Math.max(0, ...Object.values(perGroup)),
    per_group: perGroup,
    by_head: byHead,
  };
}

/** Scores the sentences with the model folder `dir` (default: the shipped one). */
export async function measureNounForms(dir = MODEL_DIR): Promise<NounFormFlags> {
  const model = await loadToxicityModel({ dir, intraOpThreads: 2, maxBatch: 32 });
  try {
    const sentences = nounFormSentences();
    const scored = await model.scoreDetailed(sentences.map((s) => preprocess(s.text)));
    return nounFormFlags(
      sentences,
      scored.map((d) => d.scores),
      model.thresholds,
    );
  } finally {
    await model.dispose();
  }
}

async function main() {
  const { values } = parseArgs({ options: { 'model-dir': { type: 'string' }, json: { type: 'boolean' } } });
  const out = await measureNounForms(values['model-dir'] ?? MODEL_DIR);
  if (values.json) {
    console.log(JSON.stringify(out, null, 2));
    return;
  }
  console.log(`noun-form validation sentences flagged: ${(out.flag_rate * 100).toFixed(2)} % of ${out.sentences}`);
  console.log(`worst group: ${(out.max_group_rate * 100).toFixed(1)} %; by head: ${JSON.stringify(out.by_head)}`);
  for (const [g, r] of Object.entries(out.per_group)) if (r > 0) console.log(`  ${g}: ${(r * 100).toFixed(1)} %`);
}

runIfScript(import.meta.url, main);
