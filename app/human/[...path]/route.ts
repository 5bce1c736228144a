// GET /human/... – @vladmandic/human's browser build, the face models it needs, and tfjs wasm binaries
/**
 * The webcam pages load Human at run time (a `webpackIgnore` dynamic import of `/human/human.esm.js`)
 * instead of bundling it (docs/decisions/020-browser-pages.md). Only an exact allow-list is
 * served, straight from node_modules, so the JS, the models and the wasm always match the
 * installed versions; any other path is a 404.
 *
 * The files are small (the largest is ~3 MB) and are answered from memory rather than streamed:
 * on Node 20 a `Readable.toWeb` file stream whose client disconnects mid-body can throw
 * "Controller is already closed" as an uncaught exception (see docs/decisions/020), and a person
 * leaving /register while the models load must not be able to stop the server.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CACHE_CONTROL, ifNoneMatchHits } from '@/lib/server/serve-static-file';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const HUMAN = ['node_modules', '@vladmandic', 'human'];
const TFJS_WASM = ['node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist'];
const MODELS = ['blazeface', 'facemesh', 'antispoof', 'liveness'];

const ALLOWED: ReadonlyMap<string, string[]> = new Map([
  ['human.esm.js', [...HUMAN, 'dist', 'human.esm.js']],
  ...MODELS.flatMap((m) => [
    [`models/${m}.json`, [...HUMAN, 'models', `${m}.json`]] as [string, string[]],
    [`models/${m}.bin`, [...HUMAN, 'models', `${m}.bin`]] as [string, string[]],
  ]),
  ...['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'].map(
    (f) => [`wasm/${f}`, [...TFJS_WASM, f]] as [string, string[]],
  ),
]);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.bin': 'application/octet-stream',
};

/** One read per file version (size + mtime): the body and its weak ETag. */
const cache = new Map<string, { version: string; body: Buffer; etag: string }>();

async function load(file: string): Promise<{ body: Buffer; etag: string } | undefined> {
  let info: Stats;
  try {
    info = await stat(file);
  } catch {
    return undefined;
  }
  const version = `${info.size}:${info.mtimeMs}`;
  const hit = cache.get(file);
  if (hit?.version === version) return hit;
  const body = await readFile(file);
  const entry = { version, body, etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
  cache.set(file, entry);
  return entry;
}

const notFound = () => Response.json({ detail: 'Not Found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });

export async function GET(request: Request, { params }: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const { path: segments } = await params;
  const parts = ALLOWED.get(segments.join('/'));
  if (!parts) return notFound();
  const file = path.join(/* turbopackIgnore: true */ process.cwd(), ...parts);
  const entry = await load(file);
  if (!entry) return notFound();
  const headers: Record<string, string> = {
    'Cache-Control': CACHE_CONTROL,
    ETag: entry.etag,
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'X-Content-Type-Options': 'nosniff',
  };
  if (ifNoneMatchHits(request.headers.get('if-none-match'), entry.etag)) return new Response(null, { status: 304, headers });
  headers['Content-Length'] = String(entry.body.length);
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  return new Response(new Uint8Array(entry.body), { status: 200, headers });
}
