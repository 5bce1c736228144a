/**
 * Read a JSON body for the /api/v1 family: media type, a byte limit enforced while streaming
 * (a large upload is cut off at the limit instead of being buffered whole), UTF-8 and JSON
 * syntax, each answered in the envelope. The /v1 family has its own reader (read-json-body.ts)
 * because its errors have another shape.
 */
import { ApiV1Error, apiV1Errors } from './api-v1-error';
import { readLimited } from './read-json-body';

export async function readApiV1Json(request: Request, maxBytes: number): Promise<unknown> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
    throw new ApiV1Error('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json.');
  }
  const tooLarge = () => new ApiV1Error('PAYLOAD_TOO_LARGE', `The body must be at most ${maxBytes} bytes.`);
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const bytes = await readLimited(request, maxBytes, tooLarge);
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch {
    throw apiV1Errors.validation('body', 'must be valid JSON (UTF-8)');
  }
}
