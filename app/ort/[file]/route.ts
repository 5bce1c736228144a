// GET /ort/<file> – onnxruntime-web runtime (ES module + wasm) for the browser moderation Worker
/**
 * The Worker imports onnxruntime-web at run time from here instead of through the bundler
 * (docs/decisions/004-browser-inference.md): the files are served unmodified from the installed
 * package, so the JS glue and the .wasm always come from the same version. Only the two builds
 * the Worker uses are allowed: `ort.wasm` (CPU) and `ort.webgpu` (WebGPU, asyncify wasm).
 */
import path from 'node:path';
import { serveStaticFile } from '@/lib/server/serve-static-file';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const ALLOWED = new Set([
  'ort.wasm.min.mjs',
  'ort-wasm-simd-threaded.mjs',
  'ort-wasm-simd-threaded.wasm',
  'ort.webgpu.min.mjs',
  'ort-wasm-simd-threaded.asyncify.mjs',
  'ort-wasm-simd-threaded.asyncify.wasm',
]);

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  if (!ALLOWED.has(file)) {
    return Response.json({ detail: 'Not Found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  }
  const dist = path.join(process.cwd(), 'node_modules', 'onnxruntime-web', 'dist');
  return serveStaticFile(request, path.join(dist, file));
}
