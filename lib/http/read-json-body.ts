/**
 * Read a JSON request body with the checks a public API needs before parsing anything:
 * the media type, a byte limit enforced while streaming (a lying or absent Content-Length
 * cannot make us buffer more than the limit), UTF-8 decoding and JSON syntax.
 */
import { requestError } from './v1-error';

export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(mediaType)) {
    throw requestError(415, ['header', 'content-type'], 'content_type', 'Content-Type must be application/json');
  }
  const tooLarge = () => requestError(413, ['body'], 'payload_too_large', `Request body exceeds the limit of ${maxBytes} bytes`);

  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();

  const bytes = await readLimited(request, maxBytes, tooLarge);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw requestError(400, ['body'], 'json_invalid', 'JSON decode error: body is not valid UTF-8');
  }
  if (text.trim() === '') throw requestError(400, ['body'], 'missing', 'Field required');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const reason = err instanceof SyntaxError ? err.message : 'invalid JSON';
    throw requestError(400, ['body', 0], 'json_invalid', `JSON decode error: ${reason}`);
  }
}

/**
 * The body's bytes; throws `tooLarge()` as soon as they pass `maxBytes`, without buffering more.
 * The rest of a refused body is read and dropped, not cancelled: cancelling an unfinished Node
 * request destroys its socket, and a client still sending then gets a reset instead of the 413
 * (its write fails before it reads the answer). server.mjs bounds that drain in time
 * (lib/socket-guards/close-refused-upload.mjs).
 */
export async function readLimited(request: Request, maxBytes: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void discardRest(reader);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Reads `reader` to its end, dropping every chunk; a stream that fails ends the drain. */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    // The socket was closed (by the client, or by the server's drain limit): nothing left to drop.
  }
}
