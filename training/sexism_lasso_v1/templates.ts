/**
 * Expands `training-templates.json` (frames × fillers) into labelled sentences. Deterministic: a
 * frame's slot combinations are enumerated in a fixed order and, when there are more than
 * `max_per_frame`, a fixed-seed sample of them is kept. Node-only (reads the file).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { mulberry32 } from '@/training/ml/random';
import { fnv1a } from '@/training/ml/hash';
import { TRAINING_DIR } from './model-dir';

export const TEMPLATES_FILE = resolve(TRAINING_DIR, 'training-templates.json');

const frames = z.array(z.string().min(1));
const schema = z.object({
  about: z.string(),
  max_per_frame: z.number().int().positive(),
  fillers: z.record(z.string(), z.array(z.string().min(1)).min(1)),
  train: z.object({ neutral: frames, counter: frames }),
  validation: z.object({ neutral: frames, sexist: frames, other_neutral: frames }),
});
export type TemplateFile = z.infer<typeof schema>;

export type TemplateKind = 'neutral' | 'counter' | 'sexist' | 'other_neutral';

export interface TemplateSentence {
  text: string;
  kind: TemplateKind;
  /** 1 for 'sexist', 0 otherwise. */
  label: 0 | 1;
  frame: string;
}

export function loadTemplateFile(path = TEMPLATES_FILE): TemplateFile {
  return schema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

const SLOT = /\{([A-Za-z]+)\}/g;

/** Every filling of one frame, or a seeded sample of `max` of them; repeated slots take independent fillers. */
export function expandFrame(frame: string, fillers: TemplateFile['fillers'], max: number): string[] {
  const slots = [...frame.matchAll(SLOT)].map((m) => m[1] as string);
  const pools = slots.map((s) => {
    const pool = fillers[s.toLowerCase()];
    if (pool === undefined) throw new Error(`template slot {${s}} in "${frame}" has no fillers`);
    return pool;
  });
  const total = pools.reduce((n, p) => n * p.length, 1);
  let picks: number[];
  if (total <= max) picks = Array.from({ length: total }, (_, i) => i);
  else {
    // Distinct combination numbers drawn with a generator seeded by the frame text.
    const rand = mulberry32(fnv1a(frame));
    const chosen = new Set<number>();
    while (chosen.size < max) chosen.add(Math.floor(rand() * total));
    picks = [...chosen].sort((a, b) => a - b);
  }
  return picks.map((combo) => {
    let rest = combo;
    const values = pools.map((p) => {
      const v = p[rest % p.length] as string;
      rest = Math.floor(rest / p.length);
      return v;
    });
    let k = 0;
    const text = frame.replace(SLOT, (_m, name: string) => {
      const v = values[k++] as string;
      return name[0] === name[0]!.toUpperCase() ? v[0]!.toUpperCase() + v.slice(1) : v;
    });
    return text;
  });
}

function expand(kinds: Partial<Record<TemplateKind, string[]>>, file: TemplateFile): TemplateSentence[] {
  const out: TemplateSentence[] = [];
  const seen = new Set<string>();
  for (const kind of ['neutral', 'counter', 'sexist', 'other_neutral'] as const) {
    for (const frame of kinds[kind] ?? []) {
      for (const text of expandFrame(frame, file.fillers, file.max_per_frame)) {
        if (seen.has(text)) continue;
        seen.add(text);
        out.push({ text, kind, label: kind === 'sexist' ? 1 : 0, frame });
      }
    }
  }
  return out;
}

export function trainingTemplates(file: TemplateFile = loadTemplateFile()): TemplateSentence[] {
  return expand(file.train, file);
}

export function validationTemplates(file: TemplateFile = loadTemplateFile()): TemplateSentence[] {
  return expand(file.validation, file);
}
