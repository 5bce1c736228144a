// GET /ort/<file> – transformers.js and its onnxruntime-web wasm for the browser moderation Worker
/**
 * The Worker imports transformers.js at run time from here instead of through the bundler
 * (docs/decisions/004-browser-inference.md, 070-transformers-js-runtime.md). Files are served
 * unmodified from the installed packages:
 *   - `transformers.min.js`: the self-contained browser build, with onnxruntime-web's JS inside;
 *   - the wasm (and its `.mjs` loader) of that same onnxruntime-web version: the CPU build for
 *     the wasm backend, the asyncify build (WebGPU + CPU kernels) for WebGPU.
 * The project pins `onnxruntime-web` to exactly the version transformers.js depends on, so npm
 * installs one copy and its `dist/` is the one transformers.js was built against
 * (`ort-version.test.ts` fails if the two drift apart).
 */
import path from 'node:path';
import { allowListRoute } from '@/lib/http/allow-list-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// `turbopackIgnore`: a fixed folder the bundler cannot resolve statically; without it the build
// warns and traces the whole project.
const NODE_MODULES = path.join(/* turbopackIgnore: true */ process.cwd(), 'node_modules');
const ORT_DIST = path.join(NODE_MODULES, 'onnxruntime-web', 'dist');
const FILES = new Map<string, string>([
  ['transformers.min.js', path.join(NODE_MODULES, '@huggingface', 'transformers', 'dist', 'transformers.min.js')],
  ...[
    'ort-wasm-simd-threaded.mjs',
    'ort-wasm-simd-threaded.wasm',
    'ort-wasm-simd-threaded.asyncify.mjs',
    'ort-wasm-simd-threaded.asyncify.wasm',
  ].map((f): [string, string] => [f, path.join(ORT_DIST, f)]),
]);

export const GET = allowListRoute('file', () => FILES);
