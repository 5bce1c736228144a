/**
 * What a quality run scored: the served model files (fingerprinted by the same settings
 * defaultModelLoaders() reads, so MODELS_DIR and TOXICITY_MODEL_DIR apply) and the commit.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { env } from '@/lib/env';
import { resolveToxicityModelDir, servedToxicityFiles } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { RULES_VERSION, SEXISM_VERSION, TOXICITY_VERSION } from '@/lib/moderation/types';
import type { ModelInfo } from './quality-report';
import { REPO_ROOT } from './template-overlap';

/** sha256 over the files' names and bytes, first 12 hex digits. */
function fingerprint(files: readonly string[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort()) {
    h.update(f.slice(f.lastIndexOf('/') + 1));
    h.update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 12);
}

function filesUnder(dir: string, keep: (name: string) => boolean, depth = 2): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return depth > 0 ? filesUnder(p, keep, depth - 1) : [];
    return keep(name) ? [p] : [];
  });
}

/**
 * Which artifacts were served, by the same settings defaultModelLoaders() reads: the sexism model file,
 * every file of the toxicity folder the server loads (its ONNX data files included, so new weights
 * change the fingerprint) and, for rules_v1, its lexicons and rule code (the rules are code-level data).
 */
export function modelInfo(): ModelInfo[] {
  const e = env();
  const models = resolve(e.MODELS_DIR);
  const toxDir = resolveToxicityModelDir(e);
  const rules = ['lib/moderation/lexicons', 'lib/moderation/rules'].flatMap((d) =>
    filesUnder(join(REPO_ROOT, d), (n) => n.endsWith('.json') || (n.endsWith('.ts') && !n.endsWith('.test.ts')), 0),
  );
  return [
    { version: SEXISM_VERSION, fingerprint: fingerprint([resolve(e.SEXISM_MODEL_PATH ?? join(models, SEXISM_VERSION, 'model.json'))]) },
    { version: TOXICITY_VERSION, fingerprint: fingerprint(servedToxicityFiles(toxDir).map((f) => join(toxDir, f))) },
    { version: RULES_VERSION, fingerprint: fingerprint(rules) },
  ];
}

export function gitState(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim() && !l.includes('docs/model-quality') && !l.includes('docs/verdicts-metrics'));
    return { commit, dirty: status.length > 0 };
  } catch {
    return { commit: 'unknown', dirty: true };
  }
}
