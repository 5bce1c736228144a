// GET /human/... – @vladmandic/human's browser build, the face models it needs, and tfjs wasm binaries
/**
 * The webcam pages load Human at run time (a `webpackIgnore` dynamic import of `/human/human.esm.js`)
 * instead of bundling it (docs/decisions/020-browser-pages.md). Only an exact allow-list is
 * served, straight from node_modules, so the JS, the models and the wasm always match the
 * installed versions; any other path is a 404.
 */
import path from 'node:path';
import { allowListRoute } from '@/lib/http/allow-list-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Fixed folders under the working directory; `turbopackIgnore` keeps the bundler from tracing the
// whole project for a path it cannot resolve statically.
const HUMAN = path.join(/* turbopackIgnore: true */ process.cwd(), 'node_modules', '@vladmandic', 'human');
const TFJS_WASM = path.join(/* turbopackIgnore: true */ process.cwd(), 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist');
const MODELS = ['blazeface', 'facemesh', 'antispoof', 'liveness'];

const FILES = new Map<string, string>([
  ['human.esm.js', path.join(HUMAN, 'dist', 'human.esm.js')],
  ...MODELS.flatMap((m): [string, string][] => [
    [`models/${m}.json`, path.join(HUMAN, 'models', `${m}.json`)],
    [`models/${m}.bin`, path.join(HUMAN, 'models', `${m}.bin`)],
  ]),
  ...['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'].map((f): [string, string] => [
    `wasm/${f}`,
    path.join(/* turbopackIgnore: true */ TFJS_WASM, f),
  ]),
]);

export const GET = allowListRoute('path', () => FILES);
