// GET /models/... – model files for in-browser inference
/**
 * Only the files the browser Worker needs are served, from an exact allow-list: a request path
 * either equals one of these keys or is a 404, so `..`, encoded separators or any other file in
 * `models/` (training code, data, model cards) can never be reached. Files are read at request
 * time from the folders the server's own models load from (MODELS_DIR, TOXICITY_MODEL_DIR,
 * SEXISM_MODEL_PATH), so the browser runs exactly the server's model; nothing is bundled or
 * copied. The toxicity URLs are the Hugging Face folder layout transformers.js asks for in the
 * Worker (`env.localModelPath = '/models/'`). Caching: docs/decisions/004-browser-inference.md.
 */
import path from 'node:path';
import { env } from '@/lib/env';
import { allowListRoute } from '@/lib/http/allow-list-route';
import { resolveToxicityModelDir, servedToxicityFiles } from '@/lib/moderation/toxicity/resolve-toxicity-model-dir';
import { SEXISM_VERSION, TOXICITY_VERSION } from '@/lib/moderation/types';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Resolve a configured path. The paths come from the validated env, never from the request;
 * `turbopackIgnore` stops the bundler tracing the whole project because it cannot see that.
 */
const resolveConfigured = (p: string) => path.resolve(/* turbopackIgnore: true */ p);

/** URL path under /models/ -> file on disk (absolute, resolved per request from the env). */
function allowList(): ReadonlyMap<string, string> {
  const e = env();
  const dir = resolveConfigured(e.MODELS_DIR);
  const toxicity = resolveToxicityModelDir(e);
  // The toxicity folder's files the Worker loads (docs/architecture.md "Toxicity model folder").
  return new Map([
    ...servedToxicityFiles(toxicity).map((f): [string, string] => [
      `${TOXICITY_VERSION}/${f}`,
      path.join(/* turbopackIgnore: true */ toxicity, f),
    ]),
    [`${SEXISM_VERSION}/model.json`, resolveConfigured(e.SEXISM_MODEL_PATH ?? path.join(dir, SEXISM_VERSION, 'model.json'))],
  ]);
}

export const GET = allowListRoute('path', allowList);
