// GET /models/... – model files for in-browser inference
/**
 * Only the files the browser Worker needs are served, from an exact allow-list: a request path
 * either equals one of these keys or is a 404, so `..`, encoded separators or any other file in
 * `models/` (training code, data, model cards) can never be reached. Files are read at request
 * time from MODELS_DIR (the directory the server's own models load from, honouring the same
 * SEXISM_MODEL_PATH / TOXICITY_MODEL_PATH overrides), so the browser runs exactly the server's
 * model; nothing is bundled or copied. Caching: docs/decisions/004-browser-inference.md.
 */
import path from 'node:path';
import { env } from '@/lib/env';
import { serveStaticFile } from '@/lib/server/serve-static-file';
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
  const toxicity = path.join(dir, TOXICITY_VERSION);
  return new Map([
    [`${TOXICITY_VERSION}/model_quantized.onnx`, resolveConfigured(e.TOXICITY_MODEL_PATH ?? path.join(toxicity, 'model_quantized.onnx'))],
    [`${TOXICITY_VERSION}/tokenizer.json`, path.join(toxicity, 'tokenizer.json')],
    [`${TOXICITY_VERSION}/tokenizer_config.json`, path.join(toxicity, 'tokenizer_config.json')],
    [`${TOXICITY_VERSION}/config.json`, path.join(toxicity, 'config.json')],
    [`${SEXISM_VERSION}/model.json`, resolveConfigured(e.SEXISM_MODEL_PATH ?? path.join(dir, SEXISM_VERSION, 'model.json'))],
  ]);
}

export async function GET(request: Request, { params }: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const { path: segments } = await params;
  const file = allowList().get(segments.join('/'));
  if (!file) return Response.json({ detail: 'Not Found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  return serveStaticFile(request, file);
}
