/**
 * Serve one file from disk with browser caching: `Cache-Control: public, max-age=86400`, an ETag
 * (SHA-256 of the content) and `304 Not Modified` for a matching `If-None-Match`.
 *
 * Used through `allowListRoute` by the routes that hand Human, the model files and
 * onnxruntime-web's runtime to the browser (docs/decisions/004-browser-inference.md). Callers
 * resolve the path from an allow-list; this module never sees a user-supplied path. The hash is computed once per file version (size +
 * mtime), so a file replaced on disk gets a new ETag without a restart, and the body is streamed,
 * never held in memory (the wasm runtime is 14-27 MB).
 */
import 'server-only';
import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';

const CACHE_CONTROL = 'public, max-age=86400';

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.onnx': 'application/octet-stream',
  '.wasm': 'application/wasm',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/** Content type by extension; `application/octet-stream` for anything not listed. */
function contentTypeFor(file: string): string {
  const dot = file.lastIndexOf('.');
  return (dot >= 0 && CONTENT_TYPES[file.slice(dot).toLowerCase()]) || 'application/octet-stream';
}

const etags = new Map<string, { version: string; etag: Promise<string> }>();

function hashFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      // Weak: Next gzips compressible responses on the fly, so the bytes on the wire vary by
      // Accept-Encoding while the file (what the tag identifies) does not.
      .on('end', () => resolve(`W/"${hash.digest('base64url').slice(0, 32)}"`));
  });
}

function etagFor(file: string, version: string): Promise<string> {
  const cached = etags.get(file);
  if (cached?.version === version) return cached.etag;
  const etag = hashFile(file);
  etags.set(file, { version, etag });
  // A failed hash (file vanished mid-read) must not be remembered.
  etag.catch(() => etags.delete(file));
  return etag;
}

/** RFC 9110 If-None-Match: `*` or a list of (weak or strong) tags, compared weakly. */
function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === bare(etag));
}

/** The one 404 of the static-file routes: no body detail beyond the status, never cached. */
export const notFound = () => Response.json({ detail: 'Not Found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });

/** Respond with `file` (an absolute path chosen by the caller from an allow-list). */
export async function serveStaticFile(request: Request, file: string): Promise<Response> {
  let info: Stats;
  try {
    info = await stat(file);
  } catch {
    return notFound();
  }
  if (!info.isFile()) return notFound();

  let etag: string;
  try {
    etag = await etagFor(file, `${info.size}:${info.mtimeMs}`);
  } catch {
    return notFound();
  }
  const headers: Record<string, string> = {
    'Cache-Control': CACHE_CONTROL,
    ETag: etag,
    'Content-Type': contentTypeFor(file),
    'X-Content-Type-Options': 'nosniff',
  };
  if (ifNoneMatchHits(request.headers.get('if-none-match'), etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers['Content-Length'] = String(info.size);
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  return new Response(fileStream(file), { status: 200, headers });
}

const CHUNK_BYTES = 64 * 1024;

/**
 * A pull-based stream over a file handle. Not `Readable.toWeb`: on Node 20 a client that
 * disconnects mid-download makes it enqueue into a closed controller, which surfaced as an
 * uncaught "Controller is already closed" and could stall the server.
 */
function fileStream(file: string): ReadableStream<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  let cancelled = false;
  const close = async () => {
    const h = handle;
    handle = undefined;
    await h?.close().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>({
    async start() {
      handle = await open(file, 'r');
    },
    async pull(controller) {
      if (!handle) return;
      const buffer = new Uint8Array(CHUNK_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (cancelled) return;
      if (bytesRead === 0) {
        await close();
        controller.close();
        return;
      }
      controller.enqueue(buffer.subarray(0, bytesRead));
    },
    async cancel() {
      cancelled = true;
      await close();
    },
  });
}
