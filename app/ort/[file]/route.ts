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
import { serveStaticFile } from '@/lib/server/serve-static-file';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const ORT_DIST = ['node_modules', 'onnxruntime-web', 'dist'];
const FILES: Readonly<Record<string, readonly string[]>> = {
  'transformers.min.js': ['node_modules', '@huggingface', 'transformers', 'dist', 'transformers.min.js'],
  'ort-wasm-simd-threaded.mjs': [...ORT_DIST, 'ort-wasm-simd-threaded.mjs'],
  'ort-wasm-simd-threaded.wasm': [...ORT_DIST, 'ort-wasm-simd-threaded.wasm'],
  'ort-wasm-simd-threaded.asyncify.mjs': [...ORT_DIST, 'ort-wasm-simd-threaded.asyncify.mjs'],
  'ort-wasm-simd-threaded.asyncify.wasm': [...ORT_DIST, 'ort-wasm-simd-threaded.asyncify.wasm'],
};

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  const parts = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
  if (!parts) {
    return Response.json({ detail: 'Not Found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  }
  return serveStaticFile(request, path.join(process.cwd(), ...parts));
}
