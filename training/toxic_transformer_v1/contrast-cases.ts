/**
 * The validation-only contrast sentences of `contrast-validation.json`: read by contrast-check.ts (the
 * ship check on the served ensemble) and by prepare.ts (train.py's model-only stand-in for it).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillIdentityTemplate, type IdentityGroup } from './identity-templates';

const HERE = dirname(fileURLToPath(import.meta.url));

interface ContrastValidation {
  categories: { id: string; expected: 'harmful' | 'not_harmful'; frames: string[] }[];
  objects: string[];
}

export interface ContrastCase {
  category: string;
  harmful: boolean;
  text: string;
}

/** Every frame filled with every validation group, or with every object when it names `{object}`. */
export function contrastCases(): ContrastCase[] {
  const spec = JSON.parse(readFileSync(join(HERE, 'contrast-validation.json'), 'utf8')) as ContrastValidation;
  const { groups } = JSON.parse(readFileSync(join(HERE, 'identity-validation.json'), 'utf8')) as { groups: IdentityGroup[] };
  const out: ContrastCase[] = [];
  for (const c of spec.categories) {
    for (const f of c.frames) {
      const texts = f.includes('{object}')
        ? spec.objects.map((o) => f.replaceAll('{object}', o))
        : /\{[^}]+\}/.test(f)
          ? groups.map((g) => fillIdentityTemplate(f, g))
          : [f];
      for (const text of texts) out.push({ category: c.id, harmful: c.expected === 'harmful', text });
    }
  }
  return out;
}
